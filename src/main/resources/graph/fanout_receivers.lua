-- One page of a pushed pin's receivers on one Redis instance: which of them are active, their affinity for the
-- author, and their pools' new approximate size. O(receivers).
--
-- KEYS[2i-1] receiver i's feed state (hash: v last visit ms, n pool rows)   KEYS[2i] receiver i's affinity (hash)
-- ARGV[1] the author   ARGV[2] a last visit before this (ms) makes a receiver inactive   ARGV[3] rows added per
-- active receiver
--
-- Returns {affinity, pool rows} per receiver; pool rows is -1 for an inactive receiver, whose state is untouched.
local author, before, rows = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for i = 1, #KEYS, 2 do
  local visit = redis.call('HGET', KEYS[i], 'v')
  if visit and tonumber(visit) < before then
    out[#out + 1] = 0
    out[#out + 1] = -1
  else
    out[#out + 1] = tonumber(redis.call('HGET', KEYS[i + 1], author)) or 0
    out[#out + 1] = redis.call('HINCRBY', KEYS[i], 'n', rows)
  end
end
return out
