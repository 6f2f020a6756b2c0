--[[
  Ends a notification as failed (budget spent, every channel refused permanently, or too old
  to wait for a channel to come back). Never overrides a delivery.

  KEYS[1] notification record hash
  ARGV[1] from step   ARGV[2] reason   ARGV[3] now (ms)   ARGV[4] skips to append (JSON array)

  Returns 0 failed now, 1 stale or already terminal, 4 missing.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return 4 end
local rec = redis.call('HMGET', KEYS[1], 'status', 'step', 'skips')
if rec[1] == 'delivered' or rec[1] == 'failed' then return 1 end
if tonumber(rec[2]) ~= tonumber(ARGV[1]) then return 1 end
local skips = cjson.decode(rec[3] or '[]')
for _, s in ipairs(cjson.decode(ARGV[4])) do table.insert(skips, s) end
-- Keep the newest 20 skips: a notification waiting out an outage re-checks every few seconds.
while #skips > 20 do table.remove(skips, 1) end
redis.call('HSET', KEYS[1], 'status', 'failed', 'reason', ARGV[2], 'finishedAt', ARGV[3], 'skips', cjson.encode(skips))
return 0
