-- wrk -t2 -c16 -d60s --latency -s k6/wrk/write-pins.lua http://127.0.0.1:8080
-- Pin writes as k6/write-pins.js, as the sample users of SEED_DIR/manifest.json that have boards, in turn:
-- 35% POST /v1/pins on one of the user's boards, 15% POST /v1/pins/{id}/saves to one of them (pins.txt),
-- 35% PUT /v1/pins/{id}/like, 15% DELETE /v1/pins/{id}/like (of a pin this thread liked, by the same user).
-- Every write starts fan-out jobs in the service. Env: SEED_DIR.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")
local users, pins, interests, action
local current, made = 0, 0
local liked = {} -- {user, pin} liked by this thread, unliked later
ok, non2xx = 0, 0

-- the same weights as k6/lib/mix.js WRITE_WEIGHTS
local WEIGHTS = {
  { "pin-create", 35 }, { "pin-save", 15 }, { "pin-like", 35 }, { "pin-unlike", 15 },
}
local WORDS = { "linen", "sourdough", "cabin", "watercolor", "harbor", "ceramic", "trail", "garden", "loft", "citrus" }

function setup(thread) common.setup(thread) end

function init(args)
  local dir = common.seed_dir()
  users = {}
  for _, u in ipairs(common.manifest_users(dir)) do
    if #u.boards > 0 then
      u.headers = common.headers(u.token, true)
      users[#users + 1] = u
    end
  end
  if #users == 0 then error("no user with a board in " .. dir .. "/manifest.json") end
  pins = common.lines(dir .. "/pins.txt")
  interests = common.manifest_interests(dir)
  action = common.weighted(WEIGHTS)
  common.seed(tid)
  current = math.random(#users)
end

local function pin_body(board)
  made = made + 1
  local n = string.format("w%d-%d-%d", tid or 0, os.time(), made)
  local tags = {}
  if #interests > 0 then
    for i = 1, math.random(0, 3) do tags[i] = '"' .. common.pick(interests) .. '"' end
  end
  return string.format('{"boardId":"%s","description":"%s %s %s","link":"https://example.com/wrk/%s",'
    .. '"imageUrl":"https://img.example.com/wrk/%s.jpg","interests":[%s]}',
    board, common.pick(WORDS), common.pick(WORDS), n, n, n, table.concat(tags, ","))
end

function request()
  current = current % #users + 1
  local user = users[current]
  local name = action()
  if name == "pin-create" then
    return wrk.format("POST", "/v1/pins", user.headers, pin_body(common.pick(user.boards)))
  elseif name == "pin-save" then
    return wrk.format("POST", "/v1/pins/" .. common.pick(pins) .. "/saves", user.headers,
      '{"boardId":"' .. common.pick(user.boards) .. '"}')
  elseif name == "pin-like" or #liked == 0 then
    local pin = common.pick(pins)
    if #liked < 1000 then liked[#liked + 1] = { user = user, pin = pin } end
    return wrk.format("PUT", "/v1/pins/" .. pin .. "/like", user.headers)
  end
  local entry = table.remove(liked, math.random(#liked))
  return wrk.format("DELETE", "/v1/pins/" .. entry.pin .. "/like", entry.user.headers)
end

function response(status, headers, body)
  if common.status_ok(status) then ok = ok + 1 else non2xx = non2xx + 1 end
end

function done(summary, latency, requests) common.done("write-pins", summary, latency) end
