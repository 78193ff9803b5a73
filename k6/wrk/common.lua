-- k6/wrk/common.lua: shared by the wrk reproductions of the k6 scenarios (Lua 5.1 / LuaJIT, as wrk embeds).
-- Reads bin/seed's side files from SEED_DIR (default .stack/seed), picks by weight or Zipf, pulls cursors and
-- leases out of bodies with patterns, counts answers per thread and prints one RESULT line in done().
-- It keeps no per-state globals: each wrk thread and the main state have their own copy.
local M = {}

M.threads = {} -- in the main state: every thread, for done()

function M.seed_dir()
  return ((os.getenv("SEED_DIR") or ".stack/seed"):gsub("/+$", ""))
end

function M.env_number(name, default)
  local text = os.getenv(name)
  if text == nil or text == "" then return default end
  local n = tonumber(text)
  if n == nil or n < 0 then error(name .. " must be a number >= 0, got '" .. text .. "'") end
  return n
end

function M.read(path)
  local f, err = io.open(path, "r")
  if not f then error("cannot open " .. path .. ": " .. tostring(err) .. " (run bin/seed, or set SEED_DIR)") end
  local text = f:read("*a")
  f:close()
  return text
end

-- Non-empty lines of a side file (boards.txt, pins.txt, heavy.txt, light.txt); an empty file is an error.
function M.lines(path)
  local out = {}
  for line in M.read(path):gmatch("[^\r\n]+") do
    if line:match("%S") then out[#out + 1] = line:match("^%s*(.-)%s*$") end
  end
  if #out == 0 then error("no lines in " .. path) end
  return out
end

-- users.tsv: "<id>\t<token>" per line -> { {id=, token=}, ... }
function M.users_tsv(dir)
  local out = {}
  for _, line in ipairs(M.lines(dir .. "/users.tsv")) do
    local id, token = line:match("^(%d+)%s+(%S+)")
    if id then out[#out + 1] = { id = id, token = token } end
  end
  if #out == 0 then error("no '<id>\\t<token>' lines in " .. dir .. "/users.tsv") end
  return out
end

-- The strings of a JSON array text such as ["1", "2"].
function M.strings(array)
  local out = {}
  for s in (array or ""):gmatch('"([^"]*)"') do out[#out + 1] = s end
  return out
end

-- The objects {...} of the top-level array named `key` in a JSON text (no nested objects inside them).
function M.objects(text, key)
  local array = text:match('"' .. key .. '"%s*:%s*(%b[])')
  local out = {}
  if array then
    for obj in array:gmatch("%b{}") do out[#out + 1] = obj end
  end
  return out
end

local function field(obj, name)
  return obj:match('"' .. name .. '"%s*:%s*"([^"]*)"')
end

-- manifest.json's users with their boards: { {id=, token=, boards={...}, own={[board]=true}}, ... }.
-- The side files hold no user's boards, and creating a pin or following needs them.
function M.manifest_users(dir)
  local out = {}
  for _, obj in ipairs(M.objects(M.read(dir .. "/manifest.json"), "users")) do
    local user = { id = field(obj, "id"), token = field(obj, "token"), boards = M.strings(obj:match('"boards"%s*:%s*(%b[])')), own = {} }
    for _, b in ipairs(user.boards) do user.own[b] = true end
    if user.id and user.token then out[#out + 1] = user end
  end
  if #out == 0 then error("no users with tokens in " .. dir .. "/manifest.json") end
  return out
end

-- manifest.json's worker {id=, token=}; WORKER_TOKEN overrides the token.
function M.manifest_worker(dir)
  local obj = M.read(dir .. "/manifest.json"):match('"worker"%s*:%s*(%b{})')
  local worker = { id = obj and field(obj, "id"), token = os.getenv("WORKER_TOKEN") or (obj and field(obj, "token")) }
  if not worker.token or worker.token == "" then error("no worker token in " .. dir .. "/manifest.json (or set WORKER_TOKEN)") end
  return worker
end

-- manifest.json's interests usable on a pin (1-40 letters, digits, spaces, _ or -).
function M.manifest_interests(dir)
  local out = {}
  for _, name in ipairs(M.strings(M.read(dir .. "/manifest.json"):match('"interests"%s*:%s*(%b[])'))) do
    if #name <= 40 and name:match("^[%w][%w _%-]*$") then out[#out + 1] = name end
  end
  return out
end

-- A page's nextCursor, or nil on the last page.
function M.next_cursor(body)
  return body and body:match('"nextCursor"%s*:%s*"([^"]+)"')
end

-- Leased jobs of a dequeue answer: { {id=, token=}, ... }.
function M.leases(body)
  local out = {}
  local items = body and body:match('"items"%s*:%s*(%b[])')
  if items then
    for obj in items:gmatch("%b{}") do
      local id, token = field(obj, "id"), field(obj, "leaseToken")
      if id and token then out[#out + 1] = { id = id, token = token } end
    end
  end
  return out
end

function M.count(body, text)
  local n, from = 0, 1
  while true do
    local at = body:find(text, from, true)
    if not at then return n end
    n, from = n + 1, at + #text
  end
end

function M.urlencode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end

-- A picker over { {name, weight}, ... }: returns function() -> name.
function M.weighted(list)
  local total, bounds = 0, {}
  for i, entry in ipairs(list) do
    total = total + entry[2]
    bounds[i] = total
  end
  if total <= 0 then error("weights must add up to more than 0") end
  return function()
    local x = math.random() * total
    for i, bound in ipairs(bounds) do
      if x < bound then return list[i][1] end
    end
    return list[#list][1]
  end
end

-- Zipf over ranks 1..n (rank 1 the most popular): returns function() -> rank.
function M.zipf(n, s)
  s = s or 1
  local cdf, sum = {}, 0
  for i = 1, n do
    sum = sum + 1 / (i ^ s)
    cdf[i] = sum
  end
  return function()
    local x = math.random() * sum
    local lo, hi = 1, n
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if x < cdf[mid] then hi = mid else lo = mid + 1 end
    end
    return lo
  end
end

-- Targets as k6/lib/targets.js picks them, from SEED_DIR's side files: user(self_id) is a heavy author (50%,
-- Zipf over heavy.txt's order), a light author (20%) or another sample user (30%), never self_id;
-- board(self) is a board of boards.txt that is not one of self's own (self.own). Either gives nil after 10 misses.
function M.targets(dir, users)
  local heavy, light, boards = M.lines(dir .. "/heavy.txt"), M.lines(dir .. "/light.txt"), M.lines(dir .. "/boards.txt")
  local heavy_rank = M.zipf(#heavy)
  local pool = M.weighted({ { "heavy", 50 }, { "light", 20 }, { "users", 30 } })
  local t = {}
  function t.user(self_id)
    for _ = 1, 10 do
      local which, id = pool(), nil
      if which == "heavy" then id = heavy[heavy_rank()]
      elseif which == "light" then id = M.pick(light)
      else id = M.pick(users).id end
      if id ~= self_id then return id end
    end
    return nil
  end
  function t.board(self)
    for _ = 1, 10 do
      local id = M.pick(boards)
      if not self.own[id] then return id end
    end
    return nil
  end
  return t
end

function M.pick(list)
  return list[math.random(#list)]
end

function M.headers(token, json)
  local h = { Authorization = "Bearer " .. token }
  if json then h["Content-Type"] = "application/json" end
  return h
end

-- In setup(): number the thread and remember it for done().
function M.setup(thread)
  M.threads[#M.threads + 1] = thread
  thread:set("tid", #M.threads)
end

-- In init(): a different random sequence per thread and run.
function M.seed(tid)
  math.randomseed(os.time() * 1000 + (tid or 0) * 7919 + math.floor((os.clock() * 1e6) % 1000))
  for _ = 1, 10 do math.random() end
end

-- The sum over threads of a per-thread global counter (nil when no thread has it).
function M.total(name)
  local sum, seen = 0, false
  for _, t in ipairs(M.threads) do
    local v = t:get(name)
    if type(v) == "number" then sum, seen = sum + v, true end
  end
  if seen then return sum end
  return nil
end

-- done(): a readable summary, then
-- RESULT name=<scenario> requests=N rps=X p50_ms=.. p99_ms=.. p999_ms=.. errors=N non2xx=N
-- errors are socket errors (connect, read, write, timeout); non2xx counts answers outside 200-299 (each
-- thread's `non2xx` global, else wrk's own count of statuses above 399).
function M.done(name, summary, latency)
  local e = summary.errors
  local socket = e.connect + e.read + e.write + e.timeout
  local non2xx = M.total("non2xx") or e.status
  local secs = summary.duration / 1e6
  local rps = secs > 0 and summary.requests / secs or 0
  local p50, p90, p99 = latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000
  local p999 = latency:percentile(99.9) / 1000
  io.write(string.format("%s: %d requests in %.1f s = %.1f req/s; p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms\n",
    name, summary.requests, secs, rps, p50, p90, p99, p999, latency.max / 1000))
  io.write(string.format("RESULT name=%s requests=%d rps=%.1f p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f errors=%d non2xx=%d\n",
    name, summary.requests, rps, p50, p99, p999, socket, non2xx))
end

-- In response(): count the answer in the thread's ok / non2xx globals (the script declares them).
function M.status_ok(status)
  return status >= 200 and status < 300
end

return M
