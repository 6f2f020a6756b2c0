-- The compact idempotency entry of an archived notification (written by compact-archived-2,
-- read by intake-3): hash buckets '<prefix><day>:<bucket>' kept in listpack encoding, one set
-- per UTC day the entries were written (the whole key expires a window after its day ends).
-- Field: the id's 16 bytes; value: the first 8 bytes (64 bits) of the payload fingerprint and
-- one status byte. 64 bits: a changed payload matches a stored prefix with probability 2^-64,
-- and a tenant that crafted a collision with its own earlier payload only gets a 200 instead
-- of its 422. A day's bucket count (2^bits, meta field 'b:<day>') is fixed at its first write
-- from the day before's volume (meta 'n:<day>'), aiming at ~64 entries a bucket.
local IDEM_DAY_MS = 86400000
local IDEM_STATUS_BYTE = { delivered = 'd', failed = 'f', unconfirmed = 'u', bounced = 'b', complained = 'c', canceled = 'x', expired = 'e', ['opted-out'] = 'o' }
local IDEM_STATUS_NAME = { d = 'delivered', f = 'failed', u = 'unconfirmed', b = 'bounced', c = 'complained', x = 'canceled', e = 'expired', o = 'opted-out' }

-- Lowercase hex -> bytes (the first `bytes` bytes); any other text is kept as it is.
local function idemBytes(text, bytes)
  local hex = string.sub(text, 1, bytes * 2)
  if #hex ~= bytes * 2 or string.find(hex, '[^0-9a-f]') then return text end
  return (string.gsub(hex, '..', function(h) return string.char(tonumber(h, 16)) end))
end

-- The bucket of an id field: its first `bits` bits (at most 24).
local function idemBucket(field, bits)
  local b1, b2, b3 = string.byte(field, 1, 3)
  local top = (b1 or 0) * 65536 + (b2 or 0) * 256 + (b3 or 0)
  return math.floor(top / 2 ^ (24 - bits))
end

local function idemBucketKey(prefix, day, field, bits)
  return prefix .. day .. ':' .. idemBucket(field, bits)
end

-- Bits for a day that will see about `volume` entries: ~64 a bucket, between 0 and 20.
local function idemBitsFor(volume)
  if volume <= 64 then return 0 end
  return math.min(20, math.ceil(math.log(volume / 64) / math.log(2)))
end

-- The entry of `id` written within the window (days today - windowDays .. today), or nil.
local function idemLookup(metaKey, prefix, id, nowMs, windowSeconds)
  local today = math.floor(nowMs / IDEM_DAY_MS)
  local first = today - math.ceil(windowSeconds / 86400)
  local fields = {}
  for day = first, today do fields[#fields + 1] = 'b:' .. day end
  local bits = redis.call('HMGET', metaKey, unpack(fields))
  local field = idemBytes(id, 16)
  for i = #bits, 1, -1 do
    if bits[i] then
      local value = redis.call('HGET', idemBucketKey(prefix, first + i - 1, field, tonumber(bits[i])), field)
      if value then return value end
    end
  end
  return nil
end
