-- wrk -t2 -c64 -d30s --latency -s bench/wrk/which-users.lua http://127.0.0.1:18090 [-- bench/data/graph/which.txt]
-- GET /v1/me/following/users?ids=<25 ids> as the user of a random "<token> <id>,<id>,..." line of the file
-- (bench/GraphLoad.java writes ~2,000 users, each with ids they follow and ids they do not).
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
local paths, auths
non2xx, ok = 0, 0

function setup(thread) common.setup(thread) end

function init(args)
  local file = args[1] or "bench/data/graph/which.txt"
  paths, auths = {}, {}
  for _, line in ipairs(common.load(file)) do
    local token, ids = line:match("^%s*(%S+)%s+(%S+)")
    if token then
      paths[#paths + 1] = "/v1/me/following/users?ids=" .. ids
      auths[#auths + 1] = { Authorization = "Bearer " .. token }
    end
  end
  if #paths == 0 then error("no '<token> <ids>' lines in " .. file) end
  common.seed()
end

function request()
  local i = math.random(#paths)
  return wrk.format("GET", paths[i], auths[i])
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else non2xx = non2xx + 1 end
end

function done(summary, latency, requests) common.done(summary, latency, requests, "which-users") end
