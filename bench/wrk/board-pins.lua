-- wrk -t2 -c64 -d30s --latency -s bench/wrk/board-pins.lua http://127.0.0.1:18090 [-- bench/data/boards.txt [limit]]
-- GET /v1/boards/{id}/pins?limit=25 for a random board id (boards.txt holds boards with at least one pin).
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
local ids, limit
non2xx, ok = 0, 0

function setup(thread) common.setup(thread) end

function init(args)
  ids = common.load(args[1] or "bench/data/boards.txt")
  limit = args[2] or "25"
  common.seed()
end

function request()
  return wrk.format("GET", "/v1/boards/" .. ids[math.random(#ids)] .. "/pins?limit=" .. limit)
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else non2xx = non2xx + 1 end
end

function done(summary, latency, requests) common.done(summary, latency, requests, "board-pins") end
