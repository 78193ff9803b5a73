-- The interest's side of one follower A, on the interest's virtual shard: A is in the interest's followers
-- (first score kept) exactly when the follower's side says so. Idempotent. O(log n).
--
-- KEYS[1] the interest's followers (zset)   ARGV[1] A   ARGV[2] state n=<score|->
local followers, a = KEYS[1], ARGV[1]
local score = string.match(ARGV[2], '^n=(.*)$')
if not score then return redis.error_reply('bad state ' .. ARGV[2]) end
if score == '-' then
  redis.call('ZREM', followers, a)
elseif not redis.call('ZSCORE', followers, a) then
  local t = tonumber(score)
  local top = redis.call('ZRANGE', followers, -1, -1, 'WITHSCORES')
  if top[2] and tonumber(top[2]) >= t then t = tonumber(top[2]) + 1 end
  redis.call('ZADD', followers, string.format('%.0f', t), a)
end
return 1
