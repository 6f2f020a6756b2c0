--[[
  Parks far-future scheduled notifications of one partition whose bodies the caller has just
  written to PostgreSQL (parked_notifications): each record still 'scheduled' and unchanged since
  the caller read it is replaced by its stub (see the parked-stubs include: the id and 64 bits of
  the payload fingerprint, so a repeated POST still answers 200 same id or 422), its event index
  entry goes, and it leaves the due index (the promoter brings it back before it is due).
  Partitions: every key is the partition's (the record and stub keys are built from ARGV).

  KEYS[1] due index (sorted set id -> sendAt, ms)

  ARGV[1] record key prefix ('<tag>:n:')   ARGV[2] parked stub prefix   ARGV[3] event index prefix
  ARGV[4] promote lead (ms): a notification due before Redis's clock + this stays (the promoter
          may already have judged its row stale, and would bring it back at once anyway)
  ARGV[5...] pairs: id, the number of fields its record had when the caller read it

  Returns { code, detail... }
    0 done   { 0, outcomes }: one character per id, in order: 'p' parked; 'k' kept in Redis
             (changed since the read, no longer scheduled, gone, or due too soon: the caller's row
             is stale); 'a' already parked (by another parker: the row is the one in use)
]]
--- @include "redis-time-ms"
--- @include "parked-stubs"
local earliest = redisTimeMs() + tonumber(ARGV[4])
local out = {}
local gone = {}
for i = 5, #ARGV, 2 do
  local id = ARGV[i]
  local key = ARGV[1] .. id
  local field = idemBytes(id, 16)
  local stubs = parkedStubKey(ARGV[2], field)
  local rec = redis.call('HMGET', key, 'status', 'fp', 'tenant', 'eventId', 'sendAt')
  if not rec[1] then
    out[#out + 1] = redis.call('HEXISTS', stubs, field) == 1 and 'a' or 'k'
  elseif rec[1] == 'scheduled' and redis.call('HLEN', key) == tonumber(ARGV[i + 1])
      and (tonumber(rec[5]) or 0) > earliest and redis.call('ZSCORE', KEYS[1], id) then
    redis.call('HSET', stubs, field, idemBytes(rec[2], 8))
    redis.call('SREM', ARGV[3] .. redis.sha1hex(rec[3] .. '\0' .. rec[4]), id)
    redis.call('ZREM', KEYS[1], id)
    gone[#gone + 1] = key
    out[#out + 1] = 'p'
  else
    out[#out + 1] = 'k'
  end
end
-- Variadic DEL in chunks (Lua's unpack has a stack limit).
for from = 1, #gone, 1000 do redis.call('DEL', unpack(gone, from, math.min(from + 999, #gone))) end
return { 0, table.concat(out) }
