-- wrk -t2 -c64 -d30s --latency -s bench/wrk/home-feed.lua http://127.0.0.1:18090 -- <file> [limit]
-- First pages: GET /v1/me/home-feed?limit=<limit, 25> as the user of a random "<token> ..." line of <file>
-- (bench/data/bulk/tokens.txt from bench/BulkLoad.java: "<token> <userId>").
-- Next pages: with a file of "<token> <cursor>" lines (bench/FeedBench.java cursors), each request carries its
-- line's cursor: GET /v1/me/home-feed?limit=<limit>&cursor=<cursor>.
-- Also prints FRESH pages_with_new_pins=<n> of <ok>: answers that carried a new chunk.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
local paths, auths
non2xx, ok, fresh = 0, 0, 0
local threads = {}

function setup(thread)
  common.setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local file = args[1] or "bench/data/bulk/tokens.txt"
  local limit = args[2] or "25"
  paths, auths = {}, {}
  for _, line in ipairs(common.load(file)) do
    local token, second = line:match("^%s*(%S+)%s+(%S+)")
    if token then
      if second:match("^%d+$") then
        paths[#paths + 1] = "/v1/me/home-feed?limit=" .. limit
      else
        paths[#paths + 1] = "/v1/me/home-feed?limit=" .. limit .. "&cursor=" .. second
      end
      auths[#auths + 1] = { Authorization = "Bearer " .. token }
    end
  end
  if #paths == 0 then error("no '<token> <userId|cursor>' lines in " .. file) end
  common.seed()
end

function request()
  local i = math.random(#paths)
  return wrk.format("GET", paths[i], auths[i])
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else non2xx = non2xx + 1 end
  -- a first page that brought a new chunk (generated pins) holds at least one fresh item
  if body and body:find('"fresh":true', 1, true) then fresh = fresh + 1 end
end

function done(summary, latency, requests)
  local with_fresh, answered = 0, 0
  for _, t in ipairs(threads) do
    with_fresh = with_fresh + (t:get("fresh") or 0)
    answered = answered + (t:get("ok") or 0)
  end
  io.write(string.format("FRESH pages_with_new_pins=%d of %d\n", with_fresh, answered))
  common.done(summary, latency, requests, "home-feed")
end
