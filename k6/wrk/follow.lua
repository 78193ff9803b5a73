-- wrk -t2 -c64 -d60s --latency -s k6/wrk/follow.lua http://127.0.0.1:8080
-- The follower graph as k6/follow.js: 80% reads (point checks of a user and a board, batch checks of 25-100
-- ids), 20% follows and unfollows, as the sample users of SEED_DIR/manifest.json in turn. User targets: 50% heavy
-- authors (heavy.txt, Zipf over the file's order), 20% light authors (light.txt), 30% other sample users, never
-- the caller; board targets from boards.txt, never the caller's own boards. Env: SEED_DIR.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")
local users, targets, action
local current = 0
ok, non2xx = 0, 0

-- the same weights as k6/lib/mix.js FOLLOW_WEIGHTS
local WEIGHTS = {
  { "follow-check-user", 30 }, { "follow-check-board", 15 }, { "follow-which-users", 20 }, { "follow-which-boards", 15 },
  { "follow-user", 6 }, { "unfollow-user", 4 }, { "follow-board", 6 }, { "unfollow-board", 4 },
}

function setup(thread) common.setup(thread) end

function init(args)
  local dir = common.seed_dir()
  users = common.manifest_users(dir)
  for _, u in ipairs(users) do
    u.headers, u.json = common.headers(u.token, false), common.headers(u.token, true)
  end
  targets = common.targets(dir, users)
  action = common.weighted(WEIGHTS)
  common.seed(tid)
  current = math.random(#users)
end

local function user_target(self)
  return targets.user(self.id)
end

local function board_target(self)
  return targets.board(self)
end

local function batch(next_id, self)
  local want, seen, ids = math.random(25, 100), {}, {}
  for _ = 1, want * 4 + 20 do
    if #ids >= want then break end
    local id = next_id(self)
    if id and not seen[id] then
      seen[id] = true
      ids[#ids + 1] = id
    end
  end
  return table.concat(ids, ",")
end

function request()
  current = current % #users + 1
  local self = users[current]
  for _ = 1, 5 do
    local name = action()
    local user, board = user_target(self), board_target(self)
    if name == "follow-check-user" and user then
      return wrk.format("GET", "/v1/users/" .. self.id .. "/following/users/" .. user, self.headers)
    elseif name == "follow-check-board" and board then
      return wrk.format("GET", "/v1/users/" .. self.id .. "/following/boards/" .. board, self.headers)
    elseif name == "follow-which-users" and user then
      return wrk.format("GET", "/v1/me/following/users?ids=" .. batch(user_target, self), self.headers)
    elseif name == "follow-which-boards" and board then
      return wrk.format("GET", "/v1/me/following/boards?ids=" .. batch(board_target, self), self.headers)
    elseif (name == "follow-user" or name == "unfollow-user") and user then
      return wrk.format(name == "follow-user" and "PUT" or "DELETE", "/v1/me/following/users/" .. user, self.json)
    elseif (name == "follow-board" or name == "unfollow-board") and board then
      return wrk.format(name == "follow-board" and "PUT" or "DELETE", "/v1/me/following/boards/" .. board, self.json)
    end
  end
  error("no follow target for user " .. self.id .. ": are heavy.txt, light.txt and boards.txt empty?")
end

function response(status, headers, body)
  if common.status_ok(status) then ok = ok + 1 else non2xx = non2xx + 1 end
end

function done(summary, latency, requests) common.done("follow", summary, latency) end
