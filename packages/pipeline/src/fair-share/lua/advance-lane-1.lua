--[[
  Moves a lane's virtual time up to the start tag of the latest job taken (never back: a
  monotonic max), so a tenant arriving later starts there and not at 0.

  KEYS[1] the lane's tags hash (tag-lane-1)

  ARGV[1] the largest start tag taken since the last call

  Returns
    0
]]
local s = tonumber(ARGV[1])
local v = tonumber(redis.call('HGET', KEYS[1], 'v')) or 0
if s > v then redis.call('HSET', KEYS[1], 'v', string.format('%.17g', s)) end
return 0
