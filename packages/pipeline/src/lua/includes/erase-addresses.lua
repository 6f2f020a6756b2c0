-- A terminal record keeps no personal data: the addresses go, their sha256 hashes (field 'ah',
-- written at intake) stay, so support can still match a record to an address.
local function eraseAddresses(key)
  redis.call('HDEL', key, 'addresses')
end
