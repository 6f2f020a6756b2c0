--- @include "breaker-window"
-- Moving a breaker: opening empties the window and the probe leases; closing empties both too.
local function openBreaker(key, probesKey, now, openMs, slots)
  redis.call('HDEL', key, unpack(windowFields(slots)))
  redis.call('HSET', key, 'state', 'open', 'until', now + openMs, 'ok', 0, 'since', now)
  redis.call('DEL', probesKey)
end

local function closeBreaker(key, probesKey, now, slots)
  redis.call('HDEL', key, 'until', unpack(windowFields(slots)))
  redis.call('HSET', key, 'state', 'closed', 'ok', 0, 'since', now)
  redis.call('DEL', probesKey)
end
