--[[
  Reports how one call allowed by acquire-2 ended, and moves the breaker when that decides it.

  KEYS[1] breaker hash of the channel   fields: state, until, ok, since, w<slot>, win, slots
  KEYS[2] probe leases of the channel   sorted set: lease id -> expiry (ms)

  ARGV[1] kind: success (delivered) | failure (transient, unknown) | neutral (permanent)
          | not-called (the call never happened: only frees a probe lease)
  ARGV[2] lease id, or '' for an ordinary call made while closed
  ARGV[3] window ms          ARGV[4] window slots      ARGV[5] min calls
  ARGV[6] failure ratio      ARGV[7] open ms           ARGV[8] probe successes to close

  Window slot w<i> = '<slot number>:<calls>:<failures>', slot number = floor(now / slot ms);
  a slot whose number is older than the window is stale and counts as empty.

  Returns { state, from, calls, failures }
    state     closed | half-open | open, after this call
    from      the previous state when this call moved it, else ''
    calls, failures   the window's counts when this call evaluated it (a closed-state failure), else 0

  Rules: only a live probe decides a half-open breaker (failure re-opens, ARGV[8] successes
  close); an ordinary call counts only while closed (a late answer of a call that started
  before the breaker opened says nothing new); neutral and not-called never count.
]]
local kind = ARGV[1]
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
local slots = tonumber(ARGV[4])

local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function slotFields()
  local fields = {}
  for i = 0, slots - 1 do fields[#fields + 1] = 'w' .. i end
  return fields
end

local function open(now, from, calls, failures)
  redis.call('HDEL', KEYS[1], unpack(slotFields()))
  redis.call('HSET', KEYS[1], 'state', 'open', 'until', now + tonumber(ARGV[7]), 'ok', 0, 'since', now)
  redis.call('DEL', KEYS[2])
  return { 'open', from, calls, failures }
end

if ARGV[2] ~= '' then
  local held = redis.call('ZREM', KEYS[2], ARGV[2])
  if state ~= 'half-open' or held == 0 then return { state, '', 0, 0 } end
  if kind == 'failure' then return open(nowMs(), 'half-open', 0, 0) end
  if kind == 'success' then
    local ok = redis.call('HINCRBY', KEYS[1], 'ok', 1)
    if ok >= tonumber(ARGV[8]) then
      redis.call('HDEL', KEYS[1], 'until', unpack(slotFields()))
      redis.call('HSET', KEYS[1], 'state', 'closed', 'ok', 0, 'since', nowMs())
      redis.call('DEL', KEYS[2])
      return { 'closed', 'half-open', 0, 0 }
    end
  end
  return { 'half-open', '', 0, 0 }
end

if state ~= 'closed' or (kind ~= 'success' and kind ~= 'failure') then return { state, '', 0, 0 } end

local now = nowMs()
local slotMs = math.max(1, math.floor(tonumber(ARGV[3]) / slots))
local current = math.floor(now / slotMs)
local field = 'w' .. (current % slots)
local c, f = 0, 0
local previous = redis.call('HGET', KEYS[1], field)
if previous then
  local n, pc, pf = string.match(previous, '^(%d+):(%d+):(%d+)$')
  if tonumber(n) == current then c, f = tonumber(pc), tonumber(pf) end
end
c = c + 1
if kind == 'failure' then f = f + 1 end
redis.call('HSET', KEYS[1], field, string.format('%d:%d:%d', current, c, f), 'win', ARGV[3], 'slots', slots)
if kind ~= 'failure' then return { 'closed', '', 0, 0 } end

local calls, failures = 0, 0
local values = redis.call('HMGET', KEYS[1], unpack(slotFields()))
for i = 1, slots do
  local v = values[i]
  if v then
    local n, vc, vf = string.match(v, '^(%d+):(%d+):(%d+)$')
    if n and tonumber(n) > current - slots then
      calls = calls + tonumber(vc)
      failures = failures + tonumber(vf)
    end
  end
end
if calls >= tonumber(ARGV[5]) and failures >= tonumber(ARGV[6]) * calls then
  return open(now, 'closed', calls, failures)
end
return { 'closed', '', calls, failures }
