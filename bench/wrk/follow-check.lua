-- wrk -t2 -c64 -d30s --latency -s bench/wrk/follow-check.lua http://127.0.0.1:18090 [-- bench/data/graph/checks.txt]
-- GET /v1/users/{a}/following/users/{b} for a random "<a> <b>" line of the checks file (bench/GraphLoad.java writes
-- half loaded edges, half pairs never followed). No token: the check is public.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
local paths
non2xx, ok = 0, 0

function setup(thread) common.setup(thread) end

function init(args)
  local file = args[1] or "bench/data/graph/checks.txt"
  paths = {}
  for _, line in ipairs(common.load(file)) do
    local a, b = line:match("^%s*(%d+)%s+(%d+)")
    if a then paths[#paths + 1] = "/v1/users/" .. a .. "/following/users/" .. b end
  end
  if #paths == 0 then error("no '<a> <b>' lines in " .. file) end
  common.seed()
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else non2xx = non2xx + 1 end
end

function done(summary, latency, requests) common.done(summary, latency, requests, "follow-check") end
