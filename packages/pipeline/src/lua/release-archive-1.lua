--[[
  Gives claimed ids back to the archive queue at once (their batch failed: the history store
  did not answer), so the next pass retries them without waiting for the lease to end. Ids no
  longer on the queue (compacted meanwhile) stay off it.

  KEYS[1] archive queue (sorted set id -> when it is due, ms)

  ARGV[1...] notification ids

  Returns { code, detail... }
    0 released   { 0, ids due again }
]]
--- @include "redis-time-ms"
local now = redisTimeMs()
local released = 0
for i = 1, #ARGV do
  released = released + redis.call('ZADD', KEYS[1], 'XX', 'CH', now, ARGV[i])
end
return { 0, released }
