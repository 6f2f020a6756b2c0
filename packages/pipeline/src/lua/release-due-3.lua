--[[
  Releases up to ARGV[1] due scheduled notifications of one partition: each entry of the due
  index whose sendAt is at or before Redis's clock (never early, whatever a worker's clock says)
  leaves the index, and its record, still 'scheduled', becomes 'accepted' and joins the
  pending-intake set, exactly as intake-9 leaves a notification sent now. The caller then adds
  the first step jobs; if it dies first, the intake sweeper re-adds them from the pending set
  (nothing is lost; a first step added twice is one step: begin-attempt-4 decides). An entry
  whose record is gone or no longer 'scheduled' (canceled, expired) just leaves the index.
  Partitions: every key is the partition's (the records' keys are built from ARGV[2]).

  KEYS[1] due index (sorted set id -> sendAt, ms)
  KEYS[2] pending-intake sorted set (id -> when it last made progress)
  KEYS[3] pending-urgent sorted set (id -> release time): a released urgent one joins it too

  ARGV[1] batch size   ARGV[2] record key prefix ('<tag>:n:')

  Returns { code, detail... }
    0 released   { 0, handled, now, id, channel, priority, rh, sendAt, expiresAt, quiet, cat,
                 tenant, ... }: handled = index entries taken (released or dropped); nine values
                 per released notification (the last four as the record keeps them, false when absent)
]]
--- @include "redis-time-ms"
local now = redisTimeMs()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local out = { 0, #ids, now }
local pending = {}
local urgent = {}
for _, id in ipairs(ids) do
  local key = ARGV[2] .. id
  local rec = redis.call('HMGET', key, 'status', 'chan', 'priority', 'rh', 'sendAt', 'expiresAt', 'quiet', 'cat', 'tenant')
  if rec[1] == 'scheduled' then
    redis.call('HSET', key, 'status', 'accepted', 'releasedAt', now)
    pending[#pending + 1] = now
    pending[#pending + 1] = id
    if rec[3] == 'urgent' then
      urgent[#urgent + 1] = now
      urgent[#urgent + 1] = id
    end
    out[#out + 1] = id
    out[#out + 1] = rec[2]
    out[#out + 1] = rec[3]
    out[#out + 1] = rec[4]
    out[#out + 1] = rec[5] or now
    for f = 6, 9 do out[#out + 1] = rec[f] or '' end
  end
end
-- Variadic calls in chunks (Lua's unpack has a stack limit).
for i = 1, #pending, 2000 do
  redis.call('ZADD', KEYS[2], unpack(pending, i, math.min(i + 1999, #pending)))
end
for i = 1, #urgent, 2000 do
  redis.call('ZADD', KEYS[3], unpack(urgent, i, math.min(i + 1999, #urgent)))
end
for i = 1, #ids, 1000 do
  redis.call('ZREM', KEYS[1], unpack(ids, i, math.min(i + 999, #ids)))
end
return out
