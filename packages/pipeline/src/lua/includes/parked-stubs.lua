-- The stub a parked scheduled notification leaves in Redis (park-1 writes it, restore-parked-2
-- takes it, intake-9 reads it for idempotency): a field of a hash bucket '<prefix><bucket>', the
-- bucket being the id's first PARKED_BUCKET_BITS bits; field: the id's 16 bytes, value: the first
-- 8 bytes of the payload fingerprint (as the compact idempotency entries keep it). A bucket stays
-- listpack-encoded up to 128 fields (Redis's hash-max-listpack-entries), so 4,096 buckets a
-- partition keep ~500,000 parked notifications at ~30 B each; more still work, at hashtable cost.
--- @include "idempotency-entries"
local PARKED_BUCKET_BITS = 12

local function parkedStubKey(prefix, field)
  return prefix .. idemBucket(field, PARKED_BUCKET_BITS)
end
