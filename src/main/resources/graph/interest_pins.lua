-- An interest's most recent pins, on the interest's virtual shard; the home feed backfills a new follower of the
-- interest from it. O(log n): the set never holds more than ARGV[4] members, so an add trims at most one.
--
-- KEYS[1] the interest's recent pins (zset, score: the pin's creation time in ms)
-- ARGV[1] op: add | remove   ARGV[2] pin id   ARGV[3] (add) creation time   ARGV[4] (add) members kept
--
-- Returns 1 if the set changed, else 0.
local pins, op, pin = KEYS[1], ARGV[1], ARGV[2]
if op == 'add' then
  local added = redis.call('ZADD', pins, ARGV[3], pin)
  local extra = redis.call('ZCARD', pins) - tonumber(ARGV[4])
  if extra > 0 then redis.call('ZREMRANGEBYRANK', pins, 0, extra - 1) end
  return added
elseif op == 'remove' then
  return redis.call('ZREM', pins, pin)
end
return redis.error_reply('unknown op ' .. op)
