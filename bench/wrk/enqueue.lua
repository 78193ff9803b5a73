-- bench/wrk/enqueue.lua — POST jobs to a queue. Args after "--": <token> <batch size>.
-- batch 1 sends {"body": "..."}; batch N sends {"jobs": [N jobs]}; bodies are ~15 bytes as in the PinLater figures.
local token, batch
function init(args)
  token = args[1]
  batch = tonumber(args[2] or "1")
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. token
  if batch <= 1 then
    wrk.body = '{"body":"job-000000000001x"}'
  else
    local jobs = {}
    for i = 1, batch do
      jobs[i] = string.format('{"body":"job-%012dx"}', i)
    end
    wrk.body = '{"jobs":[' .. table.concat(jobs, ",") .. ']}'
  end
end
