-- Suppresses (recipient, channel) for `ttl` seconds with its reason and time (core's
-- SuppressionValue), and lists it in the tenant's suppression index of this partition
-- (`indexPrefix` .. sha1hex(tenant), score: expiry in ms, member `<rh>:<channel>`): one SET and
-- one ZADD, on the record's slot. The tenant and recipient id are the record's.
local function recordSuppression(recordKey, suppressionKey, indexPrefix, member, reason, now, ttl)
  local who = redis.call('HMGET', recordKey, 'tenant', 'recipientId')
  local value = { reason = reason, at = tonumber(now) }
  if who[2] then value['recipientId'] = who[2] end
  redis.call('SET', suppressionKey, cjson.encode(value), 'EX', ttl)
  if who[1] and indexPrefix ~= nil and indexPrefix ~= '' then
    redis.call('ZADD', indexPrefix .. redis.sha1hex(who[1]), tonumber(now) + tonumber(ttl) * 1000, member)
  end
end
