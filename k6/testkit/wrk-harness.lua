-- Runs each k6/wrk script under a stand-in for wrk's Lua API (setup/init/request/response/done, thread:get/set,
-- wrk.format as in wrk's wrk.lua, the verification request wrk makes on thread 1) against an in-memory API over
-- the fixture seed directory, and checks what they send. Lua 5.1 or LuaJIT: lua5.1 k6/testkit/wrk-harness.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local WRK_DIR = here .. "../wrk/"
local SEED = here .. "fixtures/seed"

local env_overrides = { SEED_DIR = SEED }
local real_getenv = os.getenv
os.getenv = function(name)
  if env_overrides[name] ~= nil then return env_overrides[name] or nil end
  return real_getenv(name)
end

local failures = 0
local function expect(cond, message)
  if not cond then
    failures = failures + 1
    io.stderr:write("FAIL: " .. message .. "\n")
  end
  return cond
end

-- A small JSON decoder, enough to check that the scripts' bodies are JSON and to read them.
local function decode(text)
  local pos = 1
  local function ws() pos = text:find("[^ \t\r\n]", pos) or #text + 1 end
  local value
  local function str()
    local out, i = {}, pos + 1
    while true do
      local c = text:sub(i, i)
      if c == "" then error("unterminated string") end
      if c == '"' then pos = i + 1; return table.concat(out) end
      if c == "\\" then
        local e = text:sub(i + 1, i + 1)
        local map = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
        if map[e] then out[#out + 1] = map[e]; i = i + 2
        elseif e == "u" then out[#out + 1] = "?"; i = i + 6
        else error("bad escape") end
      else
        if c:byte() < 32 then error("control character in string") end
        out[#out + 1] = c; i = i + 1
      end
    end
  end
  function value()
    ws()
    local c = text:sub(pos, pos)
    if c == "{" then
      pos = pos + 1; local obj = {}; ws()
      if text:sub(pos, pos) == "}" then pos = pos + 1; return obj end
      while true do
        ws(); if text:sub(pos, pos) ~= '"' then error("object key expected at " .. pos) end
        local k = str(); ws()
        if text:sub(pos, pos) ~= ":" then error("':' expected at " .. pos) end
        pos = pos + 1; obj[k] = value(); ws()
        local d = text:sub(pos, pos); pos = pos + 1
        if d == "}" then return obj end
        if d ~= "," then error("',' or '}' expected at " .. pos) end
      end
    elseif c == "[" then
      pos = pos + 1; local arr = {}; ws()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return arr end
      while true do
        arr[#arr + 1] = value(); ws()
        local d = text:sub(pos, pos); pos = pos + 1
        if d == "]" then return arr end
        if d ~= "," then error("',' or ']' expected at " .. pos) end
      end
    elseif c == '"' then return str()
    elseif text:find("^true", pos) then pos = pos + 4; return true
    elseif text:find("^false", pos) then pos = pos + 5; return false
    elseif text:find("^null", pos) then pos = pos + 4; return nil
    else
      local num = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
      if not num or num == "" then error("value expected at " .. pos) end
      pos = pos + #num; return tonumber(num)
    end
  end
  local ok, result = pcall(function() local v = value(); ws(); if pos <= #text then error("trailing text") end; return v end)
  if ok then return result end
  return nil, result
end

-- wrk's wrk table, with format() as in wrk's src/wrk.lua
local function make_wrk()
  local wrk = { scheme = "http", host = "127.0.0.1", port = "8080", method = "GET", path = "/", headers = {}, body = nil }
  function wrk.format(method, path, headers, body)
    method, path, headers, body = method or wrk.method, path or wrk.path, headers or wrk.headers, body or wrk.body
    local s = {}
    if not headers["Host"] then headers["Host"] = wrk.host end
    headers["Content-Length"] = body and string.len(body)
    s[1] = string.format("%s %s HTTP/1.1", method, path)
    for name, value in pairs(headers) do s[#s + 1] = string.format("%s: %s", name, value) end
    s[#s + 1] = ""
    s[#s + 1] = body or ""
    return table.concat(s, "\r\n")
  end
  return wrk
end

local function load_script(name)
  local env = setmetatable({}, { __index = _G })
  env.wrk = make_wrk()
  package.loaded.common = nil -- each wrk Lua state has its own copy
  local chunk = assert(loadfile(WRK_DIR .. name))
  setfenv(chunk, env)
  chunk()
  return env
end

local Thread = {}
Thread.__index = Thread
function Thread:get(name) return self.env[name] end
function Thread:set(name, value) self.env[name] = value end

-- The fixture's users, boards and worker, read independently of common.lua.
local function fixture()
  local f = assert(io.open(SEED .. "/manifest.json"))
  local m = assert(decode(f:read("*a")))
  f:close()
  local tokens, owner = {}, {}
  for _, u in ipairs(m.users) do
    tokens[u.token] = u.id
    for _, b in ipairs(u.boards) do owner[b] = u.id end
  end
  tokens[m.worker.token] = m.worker.id
  local heavy = {}
  for _, a in ipairs(m.heavyAuthors) do heavy[a.id] = true end
  return { m = m, tokens = tokens, owner = owner, worker = m.worker.id, heavy = heavy }
end

local F = fixture()

local function parse_request(req)
  local head, body = req:match("^(.-)\r\n\r\n(.*)$")
  local method, target = head:match("^(%u+) (%S+) HTTP/1%.1")
  local headers = {}
  for name, value in head:gmatch("\r\n([^:\r\n]+): ([^\r\n]*)") do headers[name] = value end
  local path, query = target:match("^([^?]*)%??(.*)$")
  local q = {}
  for k, v in query:gmatch("([^&=]+)=([^&]*)") do q[k] = v end
  return { method = method, path = path, q = q, headers = headers, body = body }
end

-- The in-memory API; `log` collects what was asked.
local function server(log)
  local pending, running, next_id = {}, {}, 1
  local function answer(status, body) return status, body end
  return function(raw)
    local r = parse_request(raw)
    log[#log + 1] = r
    local caller = r.headers.Authorization and F.tokens[r.headers.Authorization:match("^Bearer (.+)$")]
    local json
    if r.method ~= "GET" then
      if r.headers["Content-Type"] ~= "application/json" then return answer(415, '{"error":"unsupported_media_type","message":""}') end
      if #r.body > 0 then
        if tonumber(r.headers["Content-Length"]) ~= #r.body then return answer(400, '{"error":"bad_request","message":"length"}') end
        local err
        json, err = decode(r.body)
        if not json then return answer(400, '{"error":"malformed_json","message":"' .. tostring(err):gsub('"', "'") .. '"}') end
      end
    end
    local p, m = r.path, r.method
    local a, b
    if m == "GET" and p == "/v1/me/home-feed" then
      if not caller then return answer(401, '{"error":"unauthorized","message":""}') end
      local n = 0
      if r.q.cursor then
        local who, k = r.q.cursor:match("^feed(%d+)%.(%d+)$")
        if who ~= caller then return answer(400, '{"error":"invalid_cursor","message":"not this list"}') end
        n = tonumber(k)
      end
      local next = n < 2 and string.format('"feed%s.%d"', caller, n + 1) or "null"
      return answer(200, '{"items":[{"pin":{"id":"1"},"source":"following","fresh":true}],"nextCursor":' .. next .. "}")
    end
    a = p:match("^/v1/me/following/(%a+)$")
    if m == "GET" and a then
      if not caller then return answer(401, '{"error":"unauthorized","message":""}') end
      local n, seen = 0, {}
      for id in (r.q.ids or ""):gmatch("[^,]+") do
        if not id:match("^%d+$") or seen[id] then return answer(400, '{"error":"invalid_ids","message":""}') end
        seen[id], n = true, n + 1
      end
      if n == 0 or n > 100 then return answer(400, '{"error":"too_many_ids","message":""}') end
      return answer(200, '{"following":[]}')
    end
    a, b = p:match("^/v1/me/following/(%a+)/(%d+)$")
    if (m == "PUT" or m == "DELETE") and a then
      if not caller then return answer(401, '{"error":"unauthorized","message":""}') end
      if (a == "users" and b == caller) or (a == "boards" and F.owner[b] == caller) then
        return answer(400, '{"error":"cannot_follow_self","message":""}')
      end
      return answer(200, '{"following":' .. tostring(m == "PUT") .. ',"changed":true}')
    end
    if m == "GET" and (p:match("^/v1/users/%d+/following/users/%d+$") or p:match("^/v1/users/%d+/following/boards/%d+$")
        or p:match("^/v1/pins/%d+$") or p:match("^/v1/boards/%d+$") or p:match("^/v1/users/%d+$")) then
      return answer(200, '{"id":"1"}')
    end
    if m == "GET" and p:match("^/v1/boards/%d+/pins$") and r.q.limit == "25" then
      return answer(200, '{"items":[],"nextCursor":null}')
    end
    local url = "^https?://[^%s/$.?#][^%s]*$"
    if m == "POST" and p == "/v1/pins" then
      if not caller then return answer(401, '{"error":"unauthorized","message":""}') end
      if type(json) ~= "table" or not tostring(json.imageUrl):match(url) or not tostring(json.link):match(url)
          or #json.description > 500 or #json.interests > 10 then
        return answer(400, '{"error":"validation_failed","message":""}')
      end
      for _, i in ipairs(json.interests) do
        if not i:match("^[%w][%w _%-]*$") or #i > 40 then return answer(400, '{"error":"validation_failed","message":""}') end
      end
      if F.owner[json.boardId] ~= caller then return answer(403, '{"error":"forbidden","message":""}') end
      return answer(201, '{"id":"9","boardId":"' .. json.boardId .. '"}')
    end
    a = p:match("^/v1/pins/(%d+)/saves$")
    if m == "POST" and a then
      if type(json) ~= "table" or F.owner[json.boardId] ~= caller then return answer(403, '{"error":"forbidden","message":""}') end
      return answer(201, '{"id":"10","savedFrom":"' .. a .. '"}')
    end
    a = p:match("^/v1/pins/(%d+)/like$")
    if (m == "PUT" or m == "DELETE") and a then
      if not caller then return answer(401, '{"error":"unauthorized","message":""}') end
      return answer(200, '{"pinId":"' .. a .. '","liked":' .. tostring(m == "PUT") .. ',"likeCount":1}')
    end
    if p:find("^/v1/queues") or p:find("^/v1/jobs") then
      if caller ~= F.worker then return answer(403, '{"error":"forbidden","message":""}') end
    end
    if m == "POST" and p == "/v1/queues/k6_jobs/jobs" then
      if type(json) ~= "table" or type(json.jobs) ~= "table" or #json.jobs < 1 or #json.jobs > 1000 then
        return answer(400, '{"error":"invalid_batch","message":""}')
      end
      local items = {}
      for _, job in ipairs(json.jobs) do
        local id = tostring(68719476736 + next_id)
        next_id = next_id + 1
        pending[#pending + 1] = { id = id, body = job.body }
        items[#items + 1] = '{"id":"' .. id .. '","created":true}'
      end
      return answer(201, '{"items":[' .. table.concat(items, ",") .. '],"nextCursor":null}')
    end
    if m == "POST" and p == "/v1/queues/k6_jobs/dequeue" then
      if type(json) ~= "table" or type(json.max) ~= "number" or json.max < 1 or json.max > 1000 then
        return answer(400, '{"error":"invalid_max","message":""}')
      end
      local items = {}
      while #pending > 0 and #items < json.max do
        local job = table.remove(pending, 1)
        running[job.id] = "1"
        items[#items + 1] = string.format('{"id":"%s","queue":"k6_jobs","priority":2,"body":"%s","bodyBase64":null,"attempt":1,'
          .. '"attemptsAllowed":5,"leaseToken":"1","leaseExpiresAt":"2026-11-22T10:01:00Z","enqueuedAt":"2026-11-22T10:00:00Z"}', job.id, job.body)
      end
      return answer(200, '{"items":[' .. table.concat(items, ",") .. '],"nextCursor":null}')
    end
    if m == "POST" and p == "/v1/jobs/ack" then
      if type(json) ~= "table" or type(json.acks) ~= "table" or #json.acks < 1 then return answer(400, '{"error":"invalid_batch","message":""}') end
      local items = {}
      for _, ack in ipairs(json.acks) do
        if ack.outcome ~= "success" then return answer(400, '{"error":"invalid_outcome","message":""}') end
        local result = running[ack.id] == ack.leaseToken and "acked" or (running[ack.id] and "lease_lost" or "not_found")
        running[ack.id] = nil
        items[#items + 1] = '{"id":"' .. ack.id .. '","result":"' .. result .. '"}'
      end
      return answer(200, '{"items":[' .. table.concat(items, ",") .. '],"nextCursor":null}')
    end
    return answer(404, '{"error":"not_found","message":"' .. m .. " " .. p .. '"}')
  end
end

-- Runs a script with `threads` threads of `conns` connections each for `rounds` rounds; with several connections
-- a thread sends them all before the answers arrive, last first (as wrk may). Returns the output, the log and
-- the thread environments.
local function run(name, rounds, threads, conns)
  local main = load_script(name)
  local envs, log = {}, {}
  local serve = server(log)
  for i = 1, threads do
    local env = load_script(name)
    local thread = setmetatable({ env = env }, Thread)
    env.wrk.thread = thread
    main.setup(thread)
    env.init({ [0] = "http://127.0.0.1:8080" })
    if i == 1 then env.request() end -- wrk builds one request on the first thread to check it, and never sends it
    envs[i] = env
  end
  local status_errors = 0
  for _ = 1, rounds do
    for _, env in ipairs(envs) do
      local sent = {}
      for c = 1, conns do sent[c] = env.request() end
      for c = conns, 1, -1 do
        local status, body = serve(sent[c])
        if status > 399 then status_errors = status_errors + 1 end
        env.response(status, {}, body)
      end
    end
  end
  local out = {}
  local write = io.write
  io.write = function(...) for _, s in ipairs({ ... }) do out[#out + 1] = s end end
  local summary = { duration = 10e6, requests = #log, bytes = 0,
    errors = { connect = 0, read = 0, write = 0, status = status_errors, timeout = 0 } }
  local latency = { max = 9000, percentile = function(_, p) return p * 10 end }
  local ok, err = pcall(main.done, summary, latency, latency)
  io.write = write
  expect(ok, name .. " done(): " .. tostring(err))
  return table.concat(out), log, envs
end

local function result_line(name, out)
  local line = out:match("(RESULT [^\n]*)\n")
  expect(line, name .. ": no RESULT line in\n" .. out)
  line = line or ""
  expect(line:match("^RESULT name=" .. name:gsub("%-", "%%-") .. " requests=%d+ rps=[%d.]+ p50_ms=[%d.]+ p99_ms=[%d.]+ p999_ms=[%d.]+ errors=%d+ non2xx=%d+$"),
    name .. ": RESULT line shape: " .. line)
  return tonumber(line:match("non2xx=(%d+)")), tonumber(line:match("requests=(%d+)"))
end

local function statuses(log, name)
  return function(pattern)
    local n = 0
    for _, r in ipairs(log) do if (r.method .. " " .. r.path):match(pattern) then n = n + 1 end end
    return n
  end
end

local tests = {}

function tests.read_feed()
  local out, log = run("read-feed.lua", 200, 2, 1)
  local non2xx, requests = result_line("read-feed", out)
  expect(non2xx == 0, "read-feed: non2xx " .. tostring(non2xx) .. "\n" .. out)
  expect(requests == 400, "read-feed: requests " .. tostring(requests))
  local first, next = 0, 0
  for _, r in ipairs(log) do
    expect(r.q.limit == "25", "read-feed: limit")
    if r.q.cursor then next = next + 1 else first = first + 1 end
  end
  expect(next > first and next < 3 * first, string.format("read-feed: %d first pages, %d next pages", first, next))
  expect(out:find("invalid_cursor=0", 1, true) and not out:find("WARNING"), "read-feed: no cursor went astray\n" .. out)
  -- several connections per thread: cursors reach the wrong users, and done() says so
  local many = run("read-feed.lua", 100, 2, 4)
  expect(many:find("WARNING: cursors reached other users", 1, true), "read-feed: warns when -c > -t\n" .. many)
  env_overrides.PAGES_MAX = "0"
  local _, only_first = run("read-feed.lua", 20, 1, 1)
  env_overrides.PAGES_MAX = nil
  for _, r in ipairs(only_first) do expect(not r.q.cursor, "read-feed: PAGES_MAX=0 reads first pages only") end
end

function tests.follow()
  local out, log = run("follow.lua", 1000, 2, 2)
  local non2xx = result_line("follow", out)
  expect(non2xx == 0, "follow: non2xx " .. tostring(non2xx) .. "\n" .. out)
  local count = statuses(log)
  local writes = count("^PUT") + count("^DELETE")
  expect(writes > 0.15 * #log and writes < 0.25 * #log, "follow: writes " .. writes .. " of " .. #log)
  expect(count("^GET /v1/me/following/users$") > 0 and count("^GET /v1/me/following/boards$") > 0, "follow: batch checks")
  expect(count("^GET /v1/users/%d+/following/boards/%d+$") > 0, "follow: board checks")
  local heavy, users = 0, 0
  for _, r in ipairs(log) do
    local id = r.path:match("^/v1/me/following/users/(%d+)$") or r.path:match("^/v1/users/%d+/following/users/(%d+)$")
    if id then
      users = users + 1
      if F.heavy[id] then heavy = heavy + 1 end
    end
  end
  expect(heavy > 0.4 * users, string.format("follow: heavy authors %d of %d targets", heavy, users))
end

function tests.write_pins()
  local out, log = run("write-pins.lua", 500, 2, 2)
  local non2xx = result_line("write-pins", out)
  expect(non2xx == 0, "write-pins: non2xx " .. tostring(non2xx) .. "\n" .. out)
  local count = statuses(log)
  expect(count("^POST /v1/pins$") > 0 and count("^POST /v1/pins/%d+/saves$") > 0, "write-pins: creates and saves")
  expect(count("^PUT /v1/pins/%d+/like$") > 0 and count("^DELETE /v1/pins/%d+/like$") > 0, "write-pins: likes and unlikes")
end

function tests.jobs()
  env_overrides.BATCH = "5"
  local out, log, envs = run("jobs.lua", 300, 2, 3)
  env_overrides.BATCH = nil
  local non2xx = result_line("jobs", out)
  expect(non2xx == 0, "jobs: non2xx " .. tostring(non2xx) .. "\n" .. out)
  local enq, deq, acked, lost = out:match("JOBS enqueued=(%d+) dequeued=(%d+) acked=(%d+) lease_lost=(%d+)")
  enq, deq, acked, lost = tonumber(enq), tonumber(deq), tonumber(acked), tonumber(lost)
  expect(enq and enq > 0 and deq > 0.9 * enq and acked > 0.9 * deq and lost == 0, "jobs: counts\n" .. out)
  local waiting = 0
  for _, env in ipairs(envs) do waiting = waiting + env.dequeued - env.acked end
  expect(acked + waiting == deq, "jobs: every leased job is acked or waiting for its ack")
  for _, r in ipairs(log) do
    if r.path == "/v1/queues/k6_jobs/dequeue" then expect(r.body == '{"max":5,"waitMs":100}', "jobs: dequeue body " .. r.body) end
  end
end

function tests.mixed()
  local out, log = run("mixed.lua", 3000, 2, 1)
  local non2xx = result_line("mixed", out)
  expect(non2xx == 0, "mixed: non2xx " .. tostring(non2xx) .. "\n" .. out)
  local reads = 0
  for _, r in ipairs(log) do if r.method == "GET" then reads = reads + 1 end end
  expect(math.abs(reads / #log - 0.85) < 0.03, "mixed: read share " .. reads / #log)
  local count = statuses(log)
  local cursors = 0
  for _, r in ipairs(log) do if r.q.cursor then cursors = cursors + 1 end end
  expect(cursors > 0, "mixed: follows feed cursors")
  for _, pattern in ipairs({ "^GET /v1/pins/%d+$", "^GET /v1/boards/%d+$", "^GET /v1/boards/%d+/pins$", "^GET /v1/users/%d+$",
      "^POST /v1/pins$", "^POST /v1/pins/%d+/saves$", "^PUT /v1/pins/%d+/like$", "^DELETE /v1/pins/%d+/like$",
      "^PUT /v1/me/following/users/%d+$", "^DELETE /v1/me/following/users/%d+$", "^PUT /v1/me/following/boards/%d+$" }) do
    expect(count(pattern) > 0, "mixed: no request like " .. pattern)
  end
end

function tests.common_module()
  package.loaded.common = nil
  package.path = WRK_DIR .. "?.lua;" .. package.path
  local common = require("common")
  expect(common.next_cursor('{"items":[],"nextCursor":"abc.DEF-_"}') == "abc.DEF-_", "next_cursor")
  expect(common.next_cursor('{"items":[],"nextCursor":null}') == nil, "next_cursor null")
  expect(common.next_cursor('{"items": [], "nextCursor" : "x"}') == "x", "next_cursor with spaces")
  expect(common.urlencode("a+b/c=") == "a%2Bb%2Fc%3D", "urlencode")
  local leases = common.leases('{"items":[{"id":"5","body":"b","leaseToken":"2"},{"leaseToken":"1","id":"6"}],"nextCursor":null}')
  expect(#leases == 2 and leases[1].id == "5" and leases[1].token == "2" and leases[2].id == "6", "leases in any field order")
  local users = common.manifest_users(SEED)
  expect(#users == #F.m.users and users[1].id == F.m.users[1].id and #users[1].boards == 2 and users[1].own[F.m.users[1].boards[2]],
    "manifest_users")
  expect(#users[10].boards == 0, "manifest_users: a user without boards")
  expect(common.manifest_worker(SEED).token == F.m.worker.token, "manifest_worker")
  local interests = common.manifest_interests(SEED)
  expect(#interests == 4 and interests[4] == "home decor", "manifest_interests drops invalid names")
  expect(#common.users_tsv(SEED) == #F.m.users, "users_tsv")
  local pick, n, counts = common.weighted({ { "a", 3 }, { "b", 1 } }), 20000, { a = 0, b = 0 }
  for _ = 1, n do local k = pick(); counts[k] = counts[k] + 1 end
  expect(math.abs(counts.a / n - 0.75) < 0.02, "weighted")
  local rank, first = common.zipf(3), 0
  for _ = 1, n do if rank() == 1 then first = first + 1 end end
  expect(math.abs(first / n - 1 / (1 + 1 / 2 + 1 / 3)) < 0.02, "zipf")
  expect(common.count('"created":true,"created":false', '"created"') == 2, "count")
end

local names = {}
for name in pairs(tests) do names[#names + 1] = name end
table.sort(names)
local passed = 0
for _, name in ipairs(names) do
  local before = failures
  local ok, err = pcall(tests[name])
  if not ok then expect(false, name .. ": " .. tostring(err)) end
  if failures == before then passed = passed + 1 end
  print((failures == before and "ok " or "not ok ") .. name)
end
print(string.format("%d passed, %d failed", passed, #names - passed))
os.exit(failures == 0 and 0 or 1)
