-- The most recent pins of an interest or of a pulled author, on that interest's or author's virtual shard: the
-- home feed pulls new pins from it at read time and backfills new followers from it. O(log n): the set never holds
-- more than ARGV[4] members, so an add trims at most one.
--
-- KEYS[1] the recent pins (zset, member '<pin>:<board>:<author>', score: the pin's creation time in ms)
-- ARGV[1] op: add | remove   ARGV[2] member   ARGV[3] (add) creation time   ARGV[4] (add) members kept
--
-- Returns 1 if the set changed, else 0.
local pins, op, member = KEYS[1], ARGV[1], ARGV[2]
if op == 'add' then
  local added = redis.call('ZADD', pins, ARGV[3], member)
  local extra = redis.call('ZCARD', pins) - tonumber(ARGV[4])
  if extra > 0 then redis.call('ZREMRANGEBYRANK', pins, 0, extra - 1) end
  return added
elseif op == 'remove' then
  return redis.call('ZREM', pins, member)
end
return redis.error_reply('unknown op ' .. op)
