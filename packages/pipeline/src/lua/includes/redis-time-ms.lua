-- Redis's clock in milliseconds (every process agrees on it; the caller's clock may be skewed).
local function redisTimeMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
