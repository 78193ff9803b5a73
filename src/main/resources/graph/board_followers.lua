-- One page of a board's followers, newest first: the board's explicit followers (source 1) merged with the
-- owner's explicit followers who did not unfollow the board (source 0). Order is (score desc, source desc); scores
-- are unique within each set. Cost O(limit + scanned unfollowers) with at most ARGV[4] owner followers scanned.
--
-- KEYS[1] owner's explicit followers (zset)   KEYS[2] board's explicit followers (zset)
-- KEYS[3] board's explicit unfollowers (set)
-- ARGV[1] limit   ARGV[2] cursor score or ''   ARGV[3] cursor source   ARGV[4] scan budget
-- Returns {more 0|1, cursor score, cursor source, member, score, source, member, score, source, ...}
local owners, direct, unfollowed = KEYS[1], KEYS[2], KEYS[3]
local limit, cursor, cursorSource, budget = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])

local directMax, ownerMax = '+inf', '+inf'
if cursor ~= '' then
  directMax = '(' .. cursor
  ownerMax = cursorSource == 1 and cursor or '(' .. cursor
end

local d = redis.call('ZRANGE', direct, directMax, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit, 'WITHSCORES')
local directDone = #d < 2 * limit

local o, scanned, ownerDone, frontier = {}, 0, false, nil
while true do
  local batch = redis.call('ZRANGE', owners, ownerMax, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit, 'WITHSCORES')
  for k = 1, #batch, 2 do
    scanned = scanned + 1
    if redis.call('SISMEMBER', unfollowed, batch[k]) == 0 then
      o[#o + 1] = batch[k]
      o[#o + 1] = batch[k + 1]
    end
  end
  if #batch < 2 * limit then ownerDone = true break end
  ownerMax = '(' .. batch[#batch]
  if #o >= 2 * limit then break end
  if scanned >= budget then frontier = tonumber(batch[#batch]) break end
end

local out = {0, '', 0}
local i, j, n = 1, 1, 0
local lastScore, lastSource = nil, nil
while n < limit do
  local ds = d[i] and tonumber(d[i + 1])
  local os = o[j] and tonumber(o[j + 1])
  local takeDirect
  if ds and os then takeDirect = ds >= os
  elseif ds then takeDirect = true
  elseif os then takeDirect = false
  else break end
  if takeDirect then
    if frontier and ds < frontier then break end
    out[#out + 1] = d[i]; out[#out + 1] = d[i + 1]; out[#out + 1] = 1
    lastScore, lastSource = d[i + 1], 1
    i = i + 2
  else
    out[#out + 1] = o[j]; out[#out + 1] = o[j + 1]; out[#out + 1] = 0
    lastScore, lastSource = o[j + 1], 0
    j = j + 2
  end
  n = n + 1
end

if directDone and i > #d and ownerDone and j > #o then return out end
out[1] = 1
if frontier and n < limit then
  -- every owner follower above the frontier was scanned (and shown or filtered); resume below it
  out[2], out[3] = string.format('%.0f', frontier), 0
else
  out[2], out[3] = lastScore, lastSource
end
return out
