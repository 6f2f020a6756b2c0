--[[
  Tags one job of a lane for fair share (start-time fair queueing, fair-share/lane-tags.ts):
  S = max(V, F_t), F_t = S + n / weight, atomically, so api and worker processes adding jobs
  of one tenant at once never hand out the same start. One hash, in the lane's slot.

  KEYS[1] the lane's tags hash: v (virtual time), f:<tenant> (finish tag), w:<tenant> (weight)

  ARGV[1] tenant ('' for a job without one)
  ARGV[2] n: steps the job holds (>= 1)
  ARGV[3] weight (1..1000), or 0: the weight last given for this tenant here (else 1)

  Returns
    { start, v } as strings (fractions kept)
]]
local tenant = ARGV[1]
local got = redis.call('HMGET', KEYS[1], 'v', 'f:' .. tenant, 'w:' .. tenant)
local v = tonumber(got[1]) or 0
local finish = tonumber(got[2]) or 0
local weight = tonumber(ARGV[3])
if weight <= 0 then weight = tonumber(got[3]) or 1 end
local start = math.max(v, finish)
redis.call('HSET', KEYS[1], 'f:' .. tenant, string.format('%.17g', start + tonumber(ARGV[2]) / weight), 'w:' .. tenant, weight)
return { string.format('%.17g', start), string.format('%.17g', v) }
