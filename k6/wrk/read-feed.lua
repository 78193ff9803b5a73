-- wrk -t32 -c32 -d60s --latency -s k6/wrk/read-feed.lua http://127.0.0.1:8080
-- Home feed sessions as k6/read-feed.js, without think time: a user of SEED_DIR/users.tsv opens
-- GET /v1/me/home-feed?limit=25, then follows nextCursor for 1-3 more pages (fewer at the last page); the next
-- session takes the next user. Run with -c equal to -t: wrk does not say which connection an answer belongs to,
-- so a thread follows its cursors only when it drives one connection (otherwise cursors reach the wrong user
-- and are answered 400 invalid_cursor, which done() reports). Env: SEED_DIR, LIMIT (25), PAGES_MAX (3).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")
local users, limit, pages_max
local current, cursor, left = 0, nil, 0
ok, non2xx, first_pages, next_pages, bad_cursor = 0, 0, 0, 0, 0

function setup(thread) common.setup(thread) end

function init(args)
  users = common.users_tsv(common.seed_dir())
  for _, u in ipairs(users) do u.headers = common.headers(u.token, false) end
  limit = string.format("%d", common.env_number("LIMIT", 25))
  pages_max = common.env_number("PAGES_MAX", 3)
  common.seed(tid)
  current = math.random(#users) -- threads start at different users, then take them in turn
end

function request()
  if cursor and left > 0 then
    left = left - 1
    next_pages = next_pages + 1
    local path = "/v1/me/home-feed?limit=" .. limit .. "&cursor=" .. common.urlencode(cursor)
    cursor = nil
    return wrk.format("GET", path, users[current].headers)
  end
  current = current % #users + 1
  cursor = nil
  left = math.min(pages_max, math.random(1, 3))
  first_pages = first_pages + 1
  return wrk.format("GET", "/v1/me/home-feed?limit=" .. limit, users[current].headers)
end

function response(status, headers, body)
  if common.status_ok(status) then ok = ok + 1 else non2xx = non2xx + 1 end
  cursor = nil
  if status == 200 then
    cursor = common.next_cursor(body)
  elseif status == 400 and body:find("invalid_cursor", 1, true) then
    bad_cursor = bad_cursor + 1
  end
end

function done(summary, latency, requests)
  local bad = common.total("bad_cursor") or 0
  io.write(string.format("FEED first_pages=%d next_pages=%d invalid_cursor=%d\n",
    common.total("first_pages") or 0, common.total("next_pages") or 0, bad))
  if bad > 0 then io.write("WARNING: cursors reached other users; run read-feed.lua with -c equal to -t\n") end
  common.done("read-feed", summary, latency)
end
