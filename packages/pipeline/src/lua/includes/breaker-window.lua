-- A breaker's sliding window in its hash: `slots` fields w<i> = '<slot number>:<calls>:<failures>',
-- slot number = floor(now / slot ms); a slot older than the window counts as empty. The only
-- place the window is summed (the gate and the snapshots read the sums from these scripts).
local function windowFields(slots)
  local fields = {}
  for i = 0, slots - 1 do fields[#fields + 1] = 'w' .. i end
  return fields
end

local function windowSlot(now, windowMs, slots)
  return math.floor(now / math.max(1, math.floor(windowMs / slots)))
end

local function windowCounts(key, now, windowMs, slots)
  local current = windowSlot(now, windowMs, slots)
  local values = redis.call('HMGET', key, unpack(windowFields(slots)))
  local calls, failures = 0, 0
  for i = 1, slots do
    local v = values[i]
    if v then
      local n, c, f = string.match(v, '^(%d+):(%d+):(%d+)$')
      if n and tonumber(n) > current - slots then
        calls = calls + tonumber(c)
        failures = failures + tonumber(f)
      end
    end
  end
  return calls, failures
end

local function windowAdd(key, now, windowMs, slots, calls, failures)
  local current = windowSlot(now, windowMs, slots)
  local field = 'w' .. (current % slots)
  local c, f = 0, 0
  local previous = redis.call('HGET', key, field)
  if previous then
    local n, pc, pf = string.match(previous, '^(%d+):(%d+):(%d+)$')
    if tonumber(n) == current then c, f = tonumber(pc), tonumber(pf) end
  end
  redis.call('HSET', key, field, string.format('%d:%d:%d', current, c + calls, f + failures), 'win', windowMs, 'slots', slots)
end
