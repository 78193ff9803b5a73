-- wrk -t32 -c32 -d60s --latency -s k6/wrk/mixed.lua http://127.0.0.1:8080
-- The mix of k6/mixed.js (85% reads, 15% writes; the same weights below), without think time. Each thread acts
-- as one sample user of SEED_DIR/manifest.json for 5-15 requests, then takes the next. home-feed-next follows
-- the last feed page's nextCursor (a first page when there is none), so run with -c equal to -t, as
-- read-feed.lua. Targets: pins.txt, boards.txt, heavy.txt (Zipf), light.txt. Env: SEED_DIR.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")
local users, pins, boards, interests, targets, action
local current, left, cursor, last, made = 0, 0, nil, nil, 0
ok, non2xx, bad_cursor = 0, 0, 0

-- the same weights as k6/lib/mix.js MIXED_WEIGHTS
local WEIGHTS = {
  { "home-feed-first", 15 },
  { "home-feed-next", 10 },
  { "pin-get", 18 },
  { "board-get", 8 },
  { "board-pins", 14 },
  { "user-get", 10 },
  { "follow-check-user", 6 },
  { "follow-which-users", 4 },
  { "pin-create", 4 },
  { "pin-like", 5 },
  { "pin-unlike", 1 },
  { "pin-save", 1 },
  { "follow-user", 2 },
  { "unfollow-user", 1 },
  { "follow-board", 1 },
}

function setup(thread) common.setup(thread) end

function init(args)
  local dir = common.seed_dir()
  users = common.manifest_users(dir)
  for _, u in ipairs(users) do
    u.headers, u.json = common.headers(u.token, false), common.headers(u.token, true)
  end
  pins, boards = common.lines(dir .. "/pins.txt"), common.lines(dir .. "/boards.txt")
  interests = common.manifest_interests(dir)
  targets = common.targets(dir, users)
  action = common.weighted(WEIGHTS)
  common.seed(tid)
  current = math.random(#users)
end

local function pin_body(board)
  made = made + 1
  local n = string.format("m%d-%d-%d", tid or 0, os.time(), made)
  local tag = #interests > 0 and '"' .. common.pick(interests) .. '"' or ""
  return string.format('{"boardId":"%s","description":"mixed %s","link":"https://example.com/wrk/%s",'
    .. '"imageUrl":"https://img.example.com/wrk/%s.jpg","interests":[%s]}', board, n, n, n, tag)
end

local function build(name, user)
  last = name
  if name == "home-feed-first" or name == "home-feed-next" then
    local path = "/v1/me/home-feed?limit=25"
    if name == "home-feed-next" and cursor then path = path .. "&cursor=" .. common.urlencode(cursor) end
    last = "feed"
    return wrk.format("GET", path, user.headers)
  elseif name == "pin-get" then return wrk.format("GET", "/v1/pins/" .. common.pick(pins))
  elseif name == "board-get" then return wrk.format("GET", "/v1/boards/" .. common.pick(boards))
  elseif name == "board-pins" then return wrk.format("GET", "/v1/boards/" .. common.pick(boards) .. "/pins?limit=25")
  elseif name == "user-get" then
    local id = targets.user(nil)
    return id and wrk.format("GET", "/v1/users/" .. id)
  elseif name == "follow-check-user" then
    local id = targets.user(user.id)
    return id and wrk.format("GET", "/v1/users/" .. user.id .. "/following/users/" .. id)
  elseif name == "follow-which-users" then
    local seen, ids = {}, {}
    for _ = 1, 120 do
      if #ids >= 25 then break end
      local id = targets.user(user.id)
      if id and not seen[id] then seen[id], ids[#ids + 1] = true, id end
    end
    return #ids > 0 and wrk.format("GET", "/v1/me/following/users?ids=" .. table.concat(ids, ","), user.headers)
  elseif name == "pin-create" then
    return #user.boards > 0 and wrk.format("POST", "/v1/pins", user.json, pin_body(common.pick(user.boards)))
  elseif name == "pin-save" then
    return #user.boards > 0 and wrk.format("POST", "/v1/pins/" .. common.pick(pins) .. "/saves", user.json,
      '{"boardId":"' .. common.pick(user.boards) .. '"}')
  elseif name == "pin-like" or name == "pin-unlike" then
    return wrk.format(name == "pin-like" and "PUT" or "DELETE", "/v1/pins/" .. common.pick(pins) .. "/like", user.json)
  elseif name == "follow-user" or name == "unfollow-user" then
    local id = targets.user(user.id)
    return id and wrk.format(name == "follow-user" and "PUT" or "DELETE", "/v1/me/following/users/" .. id, user.json)
  elseif name == "follow-board" then
    local id = targets.board(user)
    return id and wrk.format("PUT", "/v1/me/following/boards/" .. id, user.json)
  end
  error("unknown action " .. tostring(name))
end

function request()
  if left <= 0 then
    current = current % #users + 1
    left = math.random(5, 15)
    cursor = nil
  end
  left = left - 1
  local user = users[current]
  for _ = 1, 5 do
    local req = build(action(), user)
    if req then return req end
  end
  return build("pin-get", user)
end

function response(status, headers, body)
  if common.status_ok(status) then ok = ok + 1 else non2xx = non2xx + 1 end
  if last == "feed" then
    cursor = status == 200 and common.next_cursor(body) or nil
    if status == 400 and body:find("invalid_cursor", 1, true) then bad_cursor = bad_cursor + 1 end
  end
end

function done(summary, latency, requests)
  local bad = common.total("bad_cursor") or 0
  if bad > 0 then io.write(string.format("WARNING: %d cursors reached other users; run mixed.lua with -c equal to -t\n", bad)) end
  common.done("mixed", summary, latency)
end
