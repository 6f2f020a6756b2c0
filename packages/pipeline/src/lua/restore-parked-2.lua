--[[
  Brings parked notifications back into Redis from the bodies the caller read from PostgreSQL,
  each only if its stub is still there (taking the stub is the decision: a notification is
  restored once, by the promoter or by a cancel, never both). 'promote': the record is recreated
  'scheduled' with its expiry, rejoins its event index and the due index (the releaser then
  sends it when due by Redis's clock, as any scheduled one). 'cancel': it is recreated terminal
  'canceled' as cancel-notification-5 ends one (addresses erased) and joins the archive queue,
  so the history ends it and its compact idempotency entry answers a repeat. A body whose stub is
  gone is stale (restored before, or never parked): the caller deletes its row.
  Partitions: every key is the partition's (the record and stub keys are built from ARGV).

  KEYS[1] due index (sorted set id -> sendAt, ms)
  KEYS[2] archive queue (sorted set id -> when it became terminal, ms)

  ARGV[1] record key prefix ('<tag>:n:')   ARGV[2] parked stub prefix   ARGV[3] event index prefix
  ARGV[4] 'promote' | 'cancel'
  ARGV[5] tenant: only its own are restored ('' = any)   ARGV[6] now (ms)   ARGV[7] cancel reason
  ARGV[8...] triples: id, the record's expiry (ms since the epoch), its fields (JSON object)

  Returns { code, detail... }
    0 done   { 0, outcomes }: one character per id, in order: 'r' restored, 'n' not parked
]]
--- @include "parked-stubs"
--- @include "erase-addresses"
local out = {}
for i = 8, #ARGV, 3 do
  local id = ARGV[i]
  local key = ARGV[1] .. id
  local expireAt = tonumber(ARGV[i + 1])
  local fields = cjson.decode(ARGV[i + 2])
  local field = idemBytes(id, 16)
  if (ARGV[5] ~= '' and fields['tenant'] ~= ARGV[5]) or redis.call('HDEL', parkedStubKey(ARGV[2], field), field) == 0 then
    out[#out + 1] = 'n'
  else
    local flat = {}
    for name, value in pairs(fields) do
      flat[#flat + 1] = name
      flat[#flat + 1] = value
    end
    redis.call('HSET', key, unpack(flat))
    if expireAt > 0 then redis.call('PEXPIREAT', key, expireAt) end
    if ARGV[4] == 'promote' then
      local eventIndex = ARGV[3] .. redis.sha1hex(fields['tenant'] .. '\0' .. fields['eventId'])
      redis.call('SADD', eventIndex, id)
      -- The index lives as long as its longest-lived record (-1: no expiry yet, a new set).
      if expireAt > 0 and redis.call('PEXPIRETIME', eventIndex) < expireAt then redis.call('PEXPIREAT', eventIndex, expireAt) end
      redis.call('ZADD', KEYS[1], fields['sendAt'], id)
    else
      redis.call('HSET', key, 'status', 'canceled', 'reason', ARGV[7], 'finishedAt', ARGV[6])
      eraseAddresses(key)
      redis.call('ZADD', KEYS[2], ARGV[6], id)
    end
    out[#out + 1] = 'r'
  end
end
return { 0, table.concat(out) }
