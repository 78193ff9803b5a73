-- wrk -t2 -c64 -d30s --latency -s bench/wrk/get-pin.lua http://127.0.0.1:18090 [-- bench/data/pins.txt]
-- GET /v1/pins/{id} for a random pin id from the file.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
local ids
non2xx, ok = 0, 0

function setup(thread) common.setup(thread) end

function init(args)
  ids = common.load(args[1] or "bench/data/pins.txt")
  common.seed()
end

function request()
  return wrk.format("GET", "/v1/pins/" .. ids[math.random(#ids)])
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else non2xx = non2xx + 1 end
end

function done(summary, latency, requests) common.done(summary, latency, requests, "get-pin") end
