-- The follower's side of following an interest, on the follower A's virtual shard. O(log n).
--
-- KEYS[1] A's followed interests (zset)   KEYS[2] the virtual shard's unsynced-pairs zset
-- ARGV[1] op: follow | unfollow | read | settle   ARGV[2] interest   ARGV[3] pair name in KEYS[2]
-- ARGV[4] (settle) the state the interest's side was given   ARGV[5] (settle) the change time it came from
--
-- Returns {changed 0|1, state, time of the pair's unsynced change or ''}; the state is n=<score|->.
local interests, pending = KEYS[1], KEYS[2]
local op, name, pair = ARGV[1], ARGV[2], ARGV[3]

local function fmt(n) return string.format('%.0f', n) end

local function state()
  local s = redis.call('ZSCORE', interests, name)
  return 'n=' .. (s and fmt(tonumber(s)) or '-')
end

local function marker()
  local m = redis.call('ZSCORE', pending, pair)
  return m and fmt(tonumber(m)) or ''
end

if op == 'read' then return {0, state(), marker()} end

if op == 'settle' then
  local s = state()
  local m = marker()
  if s == ARGV[4] and m ~= '' and m == ARGV[5] then redis.call('ZREM', pending, pair) end
  return {0, s, marker()}
end

local t = redis.call('TIME')
t = tonumber(t[1]) * 1000000 + tonumber(t[2])
local changed = 0
if op == 'follow' then
  if not redis.call('ZSCORE', interests, name) then
    local top = redis.call('ZRANGE', interests, -1, -1, 'WITHSCORES')
    local s = t
    if top[2] and tonumber(top[2]) >= s then s = tonumber(top[2]) + 1 end
    redis.call('ZADD', interests, fmt(s), name)
    changed = 1
  end
elseif op == 'unfollow' then
  changed = redis.call('ZREM', interests, name)
else
  return redis.error_reply('unknown op ' .. op)
end
if changed == 1 then redis.call('ZADD', pending, fmt(t), pair) end
return {changed, state(), marker()}
