-- One page of a pushed pin's receivers on one Redis instance: which of them are active, their affinity for the
-- author, and their pools' new approximate size. O(receivers).
--
-- KEYS[2i-1] receiver i's feed state (hash: v last visit ms, n pool rows)   KEYS[2i] receiver i's affinity (hash)
-- ARGV[1] the author   ARGV[2] a last visit before this (ms) makes a receiver inactive   ARGV[3] rows added per
-- active receiver
--
-- Returns {active 1|0, affinity, pool rows} per receiver; an inactive receiver's state is untouched. The row
-- count is approximate (removals that race can take it below zero); it never reads below 0.
local author, before, rows = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for i = 1, #KEYS, 2 do
  local visit = redis.call('HGET', KEYS[i], 'v')
  if visit and tonumber(visit) < before then
    out[#out + 1] = 0
    out[#out + 1] = 0
    out[#out + 1] = 0
  else
    local n = redis.call('HINCRBY', KEYS[i], 'n', rows)
    if n < rows then
      n = rows
      redis.call('HSET', KEYS[i], 'n', n)
    end
    out[#out + 1] = 1
    out[#out + 1] = tonumber(redis.call('HGET', KEYS[i + 1], author)) or 0
    out[#out + 1] = n
  end
end
return out
