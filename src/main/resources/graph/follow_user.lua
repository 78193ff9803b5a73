-- The follower's side of one relationship between follower A and user C (and C's boards), on A's virtual shard.
-- Every call is O(log n) in A's sets plus O(k) in the boards of C that A follows or unfollows one by one.
--
-- KEYS[1] A's explicitly followed users (zset)     KEYS[2] A's implicitly followed users (zset)
-- KEYS[3] A's explicitly followed boards (zset)    KEYS[4] A's explicitly unfollowed boards (set)
-- KEYS[5] boards of C that A follows (zset)        KEYS[6] boards of C that A unfollowed (set)
-- KEYS[7] the virtual shard's unsynced-pairs zset (pair -> time of its last change)
-- ARGV[1] op: follow_user | unfollow_user | follow_board | unfollow_board | read | settle
-- ARGV[2] C   ARGV[3] board X (board ops)   ARGV[4] pair name in KEYS[7]
-- ARGV[5] (settle) the state the other side was given   ARGV[6] (settle) the change time it came from
--
-- Returns {changed 0|1, state, time of the pair's unsynced change or ''}. The state is canonical text the other side is synced to:
--   e=<explicit score|->;i=<implicit score|->;f=<X>:<score>,...;u=<X>,...   (boards in byte order)
local fu, fi, fb, ub, fbc, ubc, pending = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local op, c, x, pair = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end

-- a score above every score of the set, so scores are unique and pages can resume after one
local function fresh(key, t)
  local top = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if top[2] and tonumber(top[2]) >= t then return tonumber(top[2]) + 1 end
  return t
end

local function fmt(n) return string.format('%.0f', n) end

local function chunked(cmd, key, members)
  for i = 1, #members, 500 do
    redis.call(cmd, key, unpack(members, i, math.min(i + 499, #members)))
  end
end

local function state()
  local e = redis.call('ZSCORE', fu, c)
  local i = redis.call('ZSCORE', fi, c)
  local f = redis.call('ZRANGE', fbc, 0, -1, 'WITHSCORES')
  local boards = {}
  for k = 1, #f, 2 do boards[#boards + 1] = f[k] .. ':' .. fmt(tonumber(f[k + 1])) end
  table.sort(boards)
  local u = redis.call('SMEMBERS', ubc)
  table.sort(u)
  return 'e=' .. (e and fmt(tonumber(e)) or '-') .. ';i=' .. (i and fmt(tonumber(i)) or '-')
      .. ';f=' .. table.concat(boards, ',') .. ';u=' .. table.concat(u, ',')
end

local function marker()
  local m = redis.call('ZSCORE', pending, pair)
  return m and fmt(tonumber(m)) or ''
end

if op == 'read' then
  return {0, state(), marker()}
end

if op == 'settle' then
  local s = state()
  local marked = redis.call('ZSCORE', pending, pair)
  if s == ARGV[5] and marked and fmt(tonumber(marked)) == ARGV[6] then
    redis.call('ZREM', pending, pair)
  end
  return {0, s, marker()}
end

local t = now()
local changed = 0
local explicit = redis.call('ZSCORE', fu, c)

if op == 'follow_user' then
  if not explicit then
    redis.call('ZADD', fu, fmt(fresh(fu, t)), c)
    local boards = redis.call('ZRANGE', fbc, 0, -1)
    if #boards > 0 then chunked('ZREM', fb, boards) end
    redis.call('DEL', fbc, ubc)
    redis.call('ZREM', fi, c)
    changed = 1
  end
elseif op == 'unfollow_user' then
  if explicit then
    redis.call('ZREM', fu, c)
    local boards = redis.call('SMEMBERS', ubc)
    if #boards > 0 then chunked('SREM', ub, boards) end
    redis.call('DEL', ubc)
    changed = 1
  end
elseif op == 'follow_board' then
  if explicit then
    if redis.call('SREM', ubc, x) == 1 then
      redis.call('SREM', ub, x)
      changed = 1
    end
  elseif not redis.call('ZSCORE', fb, x) then
    local s = fmt(fresh(fb, t))
    redis.call('ZADD', fb, s, x)
    redis.call('ZADD', fbc, s, x)
    if not redis.call('ZSCORE', fi, c) then redis.call('ZADD', fi, fmt(fresh(fi, t)), c) end
    changed = 1
  end
elseif op == 'unfollow_board' then
  if explicit then
    if redis.call('SADD', ubc, x) == 1 then
      redis.call('SADD', ub, x)
      changed = 1
    end
  elseif redis.call('ZREM', fb, x) == 1 then
    redis.call('ZREM', fbc, x)
    if redis.call('ZCARD', fbc) == 0 then redis.call('ZREM', fi, c) end
    changed = 1
  end
else
  return redis.error_reply('unknown op ' .. op)
end

if changed == 1 then
  redis.call('ZADD', pending, fmt(t), pair)
end
return {changed, state(), marker()}
