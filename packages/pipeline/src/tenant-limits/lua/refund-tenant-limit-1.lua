--[[
  Gives back notifications a take admitted that intake did not create (a duplicate of one
  accepted before, an item refused after the take, a failed write): the quota counts only
  notifications accepted, and the bucket is not charged for them. Applied to the day of the
  take only: after the UTC day ended there is nothing to give back to.

  KEYS[1] the tenant's limits hash (take-tenant-limit-1)

  ARGV[1] n: notifications to give back (>= 1)
  ARGV[2] rate, notifications a second (0 = no rate)
  ARGV[3] the UTC day the take counted in (-1 = no quota)

  Returns
    0 refunded   given back
    1 gone       the limits expired meanwhile (the bucket refilled; no count left to lower)
]]
local n = tonumber(ARGV[1])
local perSecond = tonumber(ARGV[2])
local rec = redis.call('HMGET', KEYS[1], 'tat', 'day', 'used')
if not rec[1] and not rec[2] then return 1 end
if perSecond > 0 and rec[1] then
  -- A debt below now is a full bucket either way (take reads max(tat, now)).
  redis.call('HSET', KEYS[1], 'tat', string.format('%.0f', tonumber(rec[1]) - n * 1000000 / perSecond))
end
if rec[2] and tonumber(rec[2]) == tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'used', math.max(0, (tonumber(rec[3] or '0') or 0) - n))
end
return 0
