-- The followed user's side of one relationship between follower A and user C, on C's virtual shard: makes C's
-- follower sets and C's boards' follower sets match the follower's side exactly (the state text follow_user.lua
-- returns). Idempotent, so a repair can apply the same state again. O(log n) per set plus O(k) in the boards of C
-- that A follows or unfollows one by one, which the pair index KEYS[3] lists.
--
-- KEYS[1] C's explicit followers (zset)   KEYS[2] C's implicit followers (zset)
-- KEYS[3] pair index: board of C -> 'f' (A follows it explicitly) or 'u' (A unfollowed it) (hash)
-- ARGV[1] A   ARGV[2] key prefix of C's boards (board X's keys are <prefix><X>:f and <prefix><X>:u)
-- ARGV[3] state
local fre, fri, index = KEYS[1], KEYS[2], KEYS[3]
local a, boardPrefix, state = ARGV[1], ARGV[2], ARGV[3]

local function fmt(n) return string.format('%.0f', n) end

local function fresh(key, t)
  local top = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if top[2] and tonumber(top[2]) >= t then return tonumber(top[2]) + 1 end
  return t
end

-- member present with a fresh score (its first score is kept), or absent
local function sync(key, score)
  if score == '-' or score == nil then
    redis.call('ZREM', key, a)
  elseif not redis.call('ZSCORE', key, a) then
    redis.call('ZADD', key, fmt(fresh(key, tonumber(score))), a)
  end
end

local e, i, f, u = string.match(state, '^e=([^;]*);i=([^;]*);f=([^;]*);u=(.*)$')
if not e then return redis.error_reply('bad state ' .. state) end
sync(fre, e)
sync(fri, i)

local want, scores = {}, {}
for board, score in string.gmatch(f, '([^,:]+):([^,]+)') do
  want[board] = 'f'
  scores[board] = score
end
for board in string.gmatch(u, '([^,]+)') do want[board] = 'u' end

local old = redis.call('HGETALL', index)
for k = 1, #old, 2 do
  local board, kind = old[k], old[k + 1]
  if want[board] ~= kind then
    if kind == 'f' then redis.call('ZREM', boardPrefix .. board .. ':f', a)
    else redis.call('SREM', boardPrefix .. board .. ':u', a) end
  end
end

redis.call('DEL', index)
for board, kind in pairs(want) do
  if kind == 'f' then sync(boardPrefix .. board .. ':f', scores[board])
  else redis.call('SADD', boardPrefix .. board .. ':u', a) end
  redis.call('HSET', index, board, kind)
end
return 1
