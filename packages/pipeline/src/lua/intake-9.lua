--[[
  Reserves the idempotency key (tenant, event id, recipient id) and creates the notification
  record in one step, so two concurrent POSTs of the same event can never both create it.

  KEYS[1] notification record hash
  KEYS[2] pending-intake sorted set (id -> acceptance time), cleared when step 1 begins
  KEYS[3] idempotency meta hash (bucket bits per day); the buckets are '<ARGV[17]><day>:<bucket>',
          built here from the id (every key shares the {notify} slot)
  KEYS[4] due index sorted set (id -> sendAt, ms): a notification whose sendAt is still ahead
          (by Redis's clock, so a skewed caller never makes it early) goes here instead of
          KEYS[2], with status 'scheduled'; the releaser (release-due-3) moves it on when due
  KEYS[5..7] suppression keys of (recipient, push / sms / email)
  KEYS[8] the recipient's opt-out hash
  KEYS[9] pending-urgent sorted set (id -> acceptance time): an urgent notification sent now
          waits here too until a lane worker takes up its first step (urgent push-back counts it)

  ARGV[1] notification id       ARGV[2] payload fingerprint   ARGV[3] tenant
  ARGV[4] event id              ARGV[5] recipient id          ARGV[6] recipient hash
  ARGV[7] priority              ARGV[8] plan (JSON array)     ARGV[9] first channel
  ARGV[10] content (JSON)       ARGV[11] addresses (JSON)     ARGV[12] now (ms)
  ARGV[13] record TTL (s)       ARGV[14] skips (JSON array)
  ARGV[15] address hashes (JSON: channel -> sha256 hex; kept after the addresses are erased)
  ARGV[16] idempotency window (s)   ARGV[17] idempotency bucket key prefix
  ARGV[18] expires at (ms; '' = never)
  ARGV[19] event index prefix: the id joins the set '<ARGV[19]><sha1 hex of tenant NUL event id>'
           (cancel by event; same slot, built here as the idempotency buckets are), which lives
           as long as the record and loses the id when the record is archived (compact-archived-2)
  ARGV[20] sendAt (ms; 0 = none): ahead of Redis's clock = scheduled, else sent now
  ARGV[21] quiet hours the notification waits out (JSON), or '' for none
  ARGV[22] the non-required category whose opt-outs apply, or '' (kept as 'cat')
  ARGV[23] parked stub prefix (see the parked-stubs include), or '': a notification parked in
           PostgreSQL answers from its stub, duplicate { 1, 'scheduled' } or conflict
  ARGV[24] the first step's candidate channels in cascade order (comma-separated; '' = ARGV[9]):
           a notification sent now starts on the first one neither suppressed nor opted out, and
           records the others' skips (a scheduled one is checked when its step runs)
  ARGV[25] '1' when the recipient's opt-outs for ARGV[22] are read (the tenant has some), else ''

  Returns { code, detail... }
    0 created     { 0, status, first channel, skips found ('channel:reason,...') }: 'accepted'
                  (its first job, on that channel, is the caller's to add), or 'scheduled' (no
                  job: the releaser adds it when due)
    1 duplicate   { 1, status, channel of step 1 }: same fingerprint; while the status is still
                  'accepted' the caller re-adds the first job (idempotent), in case the first
                  intake died between this script and the enqueue
    2 conflict    { 2 }: same key, different payload (-> 422)
  A notification already archived answers from its compact entry (the full record is gone):
  duplicate { 1, final status } or conflict, exactly as its full record did.
]]
--- @include "redis-time-ms"
--- @include "idempotency-entries"
--- @include "parked-stubs"
--- @include "first-open-channel"
local existing = redis.call('HMGET', KEYS[1], 'fp', 'status', 'chan')
if existing[1] then
  if existing[1] == ARGV[2] then
    return { 1, existing[2], existing[3] }
  end
  return { 2 }
end
if ARGV[23] ~= nil and ARGV[23] ~= '' then
  local field = idemBytes(ARGV[1], 16)
  local parked = redis.call('HGET', parkedStubKey(ARGV[23], field), field)
  if parked then
    if parked == idemBytes(ARGV[2], 8) then return { 1, 'scheduled' } end
    return { 2 }
  end
end
local archived = idemLookup(KEYS[3], ARGV[17], ARGV[1], redisTimeMs(), tonumber(ARGV[16]))
if archived then
  if string.sub(archived, 1, -2) == idemBytes(ARGV[2], 8) then
    return { 1, IDEM_STATUS_NAME[string.sub(archived, -1)] }
  end
  return { 2 }
end
local sendAt = tonumber(ARGV[20]) or 0
local scheduled = sendAt > 0 and sendAt > redisTimeMs()
local status = scheduled and 'scheduled' or 'accepted'
local first, skips, found = ARGV[9], ARGV[14], ''
if not scheduled and ARGV[24] ~= nil and ARGV[24] ~= '' then
  local optOutKey = ARGV[25] == '1' and ARGV[22] ~= '' and KEYS[8] or ''
  local open, skipped = firstOpenChannel(ARGV[24], { push = KEYS[5], sms = KEYS[6], email = KEYS[7] }, optOutKey, ARGV[22], tonumber(ARGV[12]))
  if open and #skipped > 0 then
    local all = cjson.decode(skips)
    for _, s in ipairs(skipped) do table.insert(all, s) end
    first, skips, found = open, cjson.encode(all), skipsText(skipped)
  end
end
redis.call('HSET', KEYS[1],
  'id', ARGV[1], 'fp', ARGV[2], 'tenant', ARGV[3], 'eventId', ARGV[4], 'recipientId', ARGV[5],
  'rh', ARGV[6], 'priority', ARGV[7], 'plan', ARGV[8], 'step', 1, 'chan', first, 'kind', 'send',
  'content', ARGV[10], 'addresses', ARGV[11], 'acceptedAt', ARGV[12], 'status', status,
  'calls', 0, 'skips', skips, 'ah', ARGV[15])
if sendAt > 0 then redis.call('HSET', KEYS[1], 'sendAt', sendAt) end
if ARGV[18] ~= nil and ARGV[18] ~= '' then redis.call('HSET', KEYS[1], 'expiresAt', ARGV[18]) end
if ARGV[21] ~= nil and ARGV[21] ~= '' then redis.call('HSET', KEYS[1], 'quiet', ARGV[21]) end
if ARGV[22] ~= nil and ARGV[22] ~= '' then redis.call('HSET', KEYS[1], 'cat', ARGV[22]) end
-- A scheduled record outlives its wait: its TTL (and its event index's) counts from when it is due.
local ttl = tonumber(ARGV[13])
if scheduled then ttl = ttl + math.max(0, math.ceil((sendAt - tonumber(ARGV[12])) / 1000)) end
redis.call('EXPIRE', KEYS[1], ttl)
if ARGV[19] ~= nil and ARGV[19] ~= '' then
  local eventIndex = ARGV[19] .. redis.sha1hex(ARGV[3] .. '\0' .. ARGV[4])
  redis.call('SADD', eventIndex, ARGV[1])
  redis.call('EXPIRE', eventIndex, ttl)
end
if scheduled then
  redis.call('ZADD', KEYS[4], sendAt, ARGV[1])
  return { 0, status, first, '' }
end
redis.call('ZADD', KEYS[2], ARGV[12], ARGV[1])
if ARGV[7] == 'urgent' then redis.call('ZADD', KEYS[9], ARGV[12], ARGV[1]) end
return { 0, status, first, found }
