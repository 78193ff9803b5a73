-- wrk -t2 -c64 -d12s -s bench/wrk/walk-pins.lua http://127.0.0.1:8080 -- pins.txt
-- GET /v1/pins/{id} for every pin of the file in turn (each thread its own stride), over and over: a warm-up that
-- reads the whole sample once in a known time, where random picks would leave a share of it unread.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
local ids, next_index, stride

function setup(thread) common.setup(thread) end

function init(args)
  ids = common.load(args[1] or "bench/data/pins.txt")
  next_index = tid or 1
  stride = 2
end

function request()
  local id = ids[next_index]
  next_index = next_index + stride
  if next_index > #ids then next_index = next_index - #ids end
  return wrk.format("GET", "/v1/pins/" .. id)
end
