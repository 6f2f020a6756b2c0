--[[
  Claims up to ARGV[1] terminal notifications for the history store: entries of the archive
  queue that are due (score <= Redis's clock) get a lease (score = now + ARGV[2]), so several
  archivers share the queue and a crashed archiver's batch is due again when its lease ends.

  KEYS[1] archive queue (sorted set id -> when it is due, ms)

  ARGV[1] batch size   ARGV[2] lease (ms)

  Returns { code, detail... }
    0 claimed   { 0, id... }: the claimed ids, oldest first (none when nothing is due)
]]
--- @include "redis-time-ms"
local now = redisTimeMs()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local leaseEnd = now + tonumber(ARGV[2])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', leaseEnd, id) end
return { 0, unpack(ids) }
