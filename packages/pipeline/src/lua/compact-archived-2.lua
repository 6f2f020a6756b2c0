--[[
  After the history store committed them: replaces each notification's full record with its
  compact idempotency entry (id, 64-bit fingerprint prefix, final status; see the
  idempotency-entries include) in today's bucket set, and takes it off the archive queue. A
  record that is gone (expired) or not terminal only leaves the queue. Idempotent: an id
  compacted before finds no record and is only taken off the queue again.

  KEYS[1] archive queue
  KEYS[2] idempotency meta hash ('b:<day>' bucket bits, 'n:<day>' entries written that day)

  ARGV[1] notification record key prefix ('<prefix><id>'; every key shares the {notify} slot)
  ARGV[2] idempotency bucket key prefix   ARGV[3] idempotency window (s)
  ARGV[4] bucket bits for a day with no volume measured the day before
  ARGV[5] event index prefix (the id leaves '<ARGV[5]><sha1 hex of tenant NUL event id>'; see intake-3)
  ARGV[6...] notification ids

  Returns { code, detail... }
    0 compacted   { 0, entries written, ids only taken off the queue }
]]
--- @include "redis-time-ms"
--- @include "is-terminal"
--- @include "idempotency-entries"
local day = math.floor(redisTimeMs() / IDEM_DAY_MS)
local windowSeconds = tonumber(ARGV[3])
local bits = tonumber(redis.call('HGET', KEYS[2], 'b:' .. day))
if not bits then
  local before = tonumber(redis.call('HGET', KEYS[2], 'n:' .. (day - 1)))
  bits = before and idemBitsFor(before) or tonumber(ARGV[4])
  -- A new day: fix its bucket count and forget the days whose buckets have expired.
  local oldest = day - math.ceil(windowSeconds / 86400) - 1
  for _, f in ipairs(redis.call('HKEYS', KEYS[2])) do
    if tonumber(string.sub(f, 3)) < oldest then redis.call('HDEL', KEYS[2], f) end
  end
  redis.call('HSET', KEYS[2], 'b:' .. day, bits)
end
-- idemBytes with a table lookup per hex pair (no Lua call per byte); the same bytes.
local HEX_PAIR = {}
for b = 0, 255 do HEX_PAIR[string.format('%02x', b)] = string.char(b) end
local function hexBytes(text, bytes)
  local hex = string.sub(text, 1, bytes * 2)
  if #hex ~= bytes * 2 or string.find(hex, '[^0-9a-f]') then return text end
  return (string.gsub(hex, '..', HEX_PAIR))
end
local expireAt = (day + 1) * 86400 + windowSeconds
local touched = {}
local written, dropped = 0, 0
local gone = {}
for i = 6, #ARGV do
  local id = ARGV[i]
  local key = ARGV[1] .. id
  local rec = redis.call('HMGET', key, 'status', 'fp', 'tenant', 'eventId')
  if isTerminal(rec[1]) and rec[2] then
    local field = hexBytes(id, 16)
    local bucket = idemBucketKey(ARGV[2], day, field, bits)
    redis.call('HSET', bucket, field, hexBytes(rec[2], 8) .. IDEM_STATUS_BYTE[rec[1]])
    if not touched[bucket] then
      touched[bucket] = true
      redis.call('EXPIREAT', bucket, expireAt)
    end
    gone[#gone + 1] = key
    if rec[3] and rec[4] then redis.call('SREM', ARGV[5] .. redis.sha1hex(rec[3] .. '\0' .. rec[4]), id) end
    written = written + 1
  else
    dropped = dropped + 1
  end
end
-- The records and the queue entries go in variadic calls of up to 1,000 (Lua's unpack has a stack limit).
for from = 1, #gone, 1000 do redis.call('DEL', unpack(gone, from, math.min(from + 999, #gone))) end
for from = 6, #ARGV, 1000 do redis.call('ZREM', KEYS[1], unpack(ARGV, from, math.min(from + 999, #ARGV))) end
if written > 0 then redis.call('HINCRBY', KEYS[2], 'n:' .. day, written) end
return { 0, written, dropped }
