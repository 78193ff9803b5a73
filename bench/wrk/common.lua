-- Shared by get-pin.lua and board-pins.lua: load ids, pick one at random per request (seeded per thread),
-- count non-2xx responses per thread, and print percentiles plus one machine-readable RESULT line in done().
local M = {}

local threads = {}
local counter = 0

function M.setup(thread)
  counter = counter + 1
  thread:set("tid", counter)
  table.insert(threads, thread)
end

function M.load(file)
  local ids = {}
  local f, err = io.open(file, "r")
  if not f then error("cannot open id file " .. file .. ": " .. tostring(err)) end
  for line in f:lines() do
    if #line > 0 then ids[#ids + 1] = line end
  end
  f:close()
  if #ids == 0 then error("no ids in " .. file) end
  return ids
end

function M.seed()
  -- a different sequence per thread and per run
  math.randomseed(os.time() * 1000 + (tid or 0) * 7919 + math.floor((os.clock() * 1e6) % 1000))
  for _ = 1, 10 do math.random() end
end

function M.done(summary, latency, requests, name)
  local non2xx, ok = 0, 0
  for _, t in ipairs(threads) do
    non2xx = non2xx + (t:get("non2xx") or 0)
    ok = ok + (t:get("ok") or 0)
  end
  local secs = summary.duration / 1e6
  local e = summary.errors
  local socket = e.connect + e.read + e.write + e.timeout
  local total = summary.requests
  local p50, p90, p99 = latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000
  local p999 = latency:percentile(99.9) / 1000
  io.write(string.format("%s: %d requests in %.1f s = %.1f req/s\n", name, total, secs, total / secs))
  io.write(string.format("  latency p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms\n",
    p50, p90, p99, latency.max / 1000))
  io.write(string.format("  non-2xx %d  socket errors %d (connect %d read %d write %d timeout %d)\n",
    non2xx, socket, e.connect, e.read, e.write, e.timeout))
  io.write(string.format("RESULT name=%s rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f p999_ms=%.2f requests=%d non2xx=%d socket_errors=%d\n",
    name, total / secs, p50, p90, p99, p999, total, non2xx, socket))
end

return M
