-- bash k6/wrk/setup-queue.sh   # once: creates the queue (201, or 409 queue_exists)
-- wrk -t2 -c16 -d60s --latency -s k6/wrk/jobs.lua http://127.0.0.1:8080
-- The job queue as k6/jobs.js, as the manifest's worker (SEED_DIR/manifest.json, or WORKER_TOKEN), in turn:
-- POST /v1/queues/{QUEUE}/jobs with BATCH jobs, POST /v1/queues/{QUEUE}/dequeue {max: BATCH, waitMs: WAIT_MS},
-- POST /v1/jobs/ack of every job this thread has leased and not acked (a dequeue when there is none).
-- Env: SEED_DIR, QUEUE (k6_jobs), BATCH (10), WAIT_MS (100), WORKER_TOKEN.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")
local headers, queue, batch, wait_ms
local step, sent = 0, 0
local leased = {} -- {id, token} leased by this thread's dequeues, waiting for an ack
ok, non2xx, enqueued, dequeued, acked, lease_lost = 0, 0, 0, 0, 0, 0

function setup(thread) common.setup(thread) end

function init(args)
  headers = common.headers(common.manifest_worker(common.seed_dir()).token, true)
  queue = os.getenv("QUEUE") or "k6_jobs"
  batch = math.max(1, math.min(1000, math.floor(common.env_number("BATCH", 10))))
  wait_ms = math.floor(common.env_number("WAIT_MS", 100))
  common.seed(tid)
end

local function enqueue()
  local jobs = {}
  for i = 1, batch do
    sent = sent + 1
    jobs[i] = string.format('{"body":"wrk-%d-%d"}', tid or 0, sent)
  end
  return wrk.format("POST", "/v1/queues/" .. queue .. "/jobs", headers, '{"jobs":[' .. table.concat(jobs, ",") .. "]}")
end

local function dequeue()
  return wrk.format("POST", "/v1/queues/" .. queue .. "/dequeue", headers,
    string.format('{"max":%d,"waitMs":%d}', batch, wait_ms))
end

local function ack()
  local acks = {}
  while #leased > 0 and #acks < 1000 do
    local job = table.remove(leased)
    acks[#acks + 1] = string.format('{"id":"%s","leaseToken":"%s","outcome":"success"}', job.id, job.token)
  end
  return wrk.format("POST", "/v1/jobs/ack", headers, '{"acks":[' .. table.concat(acks, ",") .. "]}")
end

function request()
  step = step % 3 + 1
  if step == 1 then return enqueue() end
  if step == 3 and #leased > 0 then return ack() end
  return dequeue()
end

function response(status, headers, body)
  if common.status_ok(status) then ok = ok + 1 else non2xx = non2xx + 1 end
  if status == 201 then
    enqueued = enqueued + common.count(body, '"created"')
  elseif status == 200 and body:find('"leaseToken"', 1, true) then
    for _, job in ipairs(common.leases(body)) do
      leased[#leased + 1] = job
      dequeued = dequeued + 1
    end
  elseif status == 200 and body:find('"result"', 1, true) then
    acked = acked + common.count(body, '"result":"acked"')
    lease_lost = lease_lost + common.count(body, '"result":"lease_lost"')
  end
end

function done(summary, latency, requests)
  io.write(string.format("JOBS enqueued=%d dequeued=%d acked=%d lease_lost=%d\n", common.total("enqueued") or 0,
    common.total("dequeued") or 0, common.total("acked") or 0, common.total("lease_lost") or 0))
  common.done("jobs", summary, latency)
end
