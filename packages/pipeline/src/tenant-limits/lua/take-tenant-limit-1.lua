--[[
  Takes up to n notifications from one tenant's limits in one step: its rate (a token bucket
  kept as GCRA's theoretical arrival time) and its daily quota (a count per UTC day), both by
  Redis's clock, so every api process counts against the same bucket and the same day. Admits
  as many of the n as both allow (a batch is accepted up to the limit, never beyond it).

  KEYS[1] the tenant's limits hash   fields: tat (us, the bucket's debt ends here), day (UTC
          day number), used (notifications admitted that day)

  ARGV[1] n: notifications asked for (>= 1)
  ARGV[2] rate, notifications a second (0 = no rate)
  ARGV[3] burst: notifications a full bucket holds
  ARGV[4] daily quota (0 = no quota)

  Returns { code, admitted, rateLeft, rateResetMs, quotaLeft, quotaResetMs, day }
    0 admitted        all n admitted
    1 rateLimited     fewer than n admitted: the bucket held fewer
    2 quotaExceeded   fewer than n admitted: the day's quota had fewer left (it binds first)
  rateLeft / quotaLeft: what is left after this call (-1 when that limit is off); rateResetMs:
  until the bucket holds one more; quotaResetMs: until the UTC day ends; day: the UTC day
  counted in (for refund-tenant-limit-1).
]]
local n = tonumber(ARGV[1])
local perSecond = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local quota = tonumber(ARGV[4])
local time = redis.call('TIME')
local nowS = tonumber(time[1])
local nowUs = nowS * 1000000 + tonumber(time[2])
local rec = redis.call('HMGET', KEYS[1], 'tat', 'day', 'used')

local admitted = n
local emission, base, rateHeld = 0, nowUs, -1
if perSecond > 0 then
  emission = 1000000 / perSecond
  base = math.max(tonumber(rec[1] or '0') or 0, nowUs)
  -- Whole notifications the bucket holds: its capacity less the debt still ahead of now.
  rateHeld = math.max(0, math.floor((nowUs + burst * emission - base) / emission + 1e-9))
  if rateHeld < admitted then admitted = rateHeld end
end
local day = math.floor(nowS / 86400)
local used = 0
if rec[2] and tonumber(rec[2]) == day then used = tonumber(rec[3] or '0') or 0 end
local quotaHeld = -1
if quota > 0 then
  quotaHeld = math.max(0, quota - used)
  if quotaHeld < admitted then admitted = quotaHeld end
end

if admitted > 0 then
  local ttlMs = 0
  if perSecond > 0 then
    base = base + admitted * emission
    -- As an integer string: a Lua number would reach Redis as '%.14g' and lose microseconds.
    redis.call('HSET', KEYS[1], 'tat', string.format('%.0f', base))
    ttlMs = math.ceil((base - nowUs) / 1000) + 1000
  end
  if quota > 0 then
    redis.call('HSET', KEYS[1], 'day', day, 'used', used + admitted)
    ttlMs = math.max(ttlMs, ((day + 1) * 86400 - nowS) * 1000 + 60000)
  end
  redis.call('PEXPIRE', KEYS[1], ttlMs)
end

local rateLeft, rateResetMs = -1, 0
if perSecond > 0 then
  rateLeft = rateHeld - admitted
  if rateLeft < burst then
    rateResetMs = math.ceil((base + emission * (rateLeft + 1 - burst) - nowUs) / 1000)
  end
end
local quotaLeft = -1
if quota > 0 then quotaLeft = quotaHeld - admitted end
local quotaResetMs = ((day + 1) * 86400 - nowS) * 1000 - math.floor(tonumber(time[2]) / 1000)

local code = 0
if admitted < n then
  if quota > 0 and quotaHeld < n and (perSecond == 0 or quotaHeld <= rateHeld) then code = 2 else code = 1 end
end
return { code, admitted, rateLeft, math.max(0, rateResetMs), quotaLeft, quotaResetMs, day }
