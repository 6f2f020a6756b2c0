--[[
  Asks one channel's circuit breaker for a probe lease, or for permission while the caller has
  no fresh local copy of the state. The clock is Redis's (TIME), so every process agrees on
  when an open period ends.

  KEYS[1] breaker hash of the channel   fields: state, until, ok, since, w<slot>, win, slots
  KEYS[2] probe leases of the channel   sorted set: lease id -> expiry (ms)

  ARGV[1] lease id (unique per call; held only if this call becomes a probe)
  ARGV[2] probes: leases allowed at once while half-open
  ARGV[3] probe lease ms: a probe that never reports frees its slot after this

  Returns { code, from, reopensInMs }
    0 refused   open: no call until the open period ends (reopensInMs from now)
    1 allowed   closed: an ordinary call, no lease
    2 probe     half-open: the call holds lease ARGV[1] and must report it (report-probe-2)
    3 busy      half-open with every probe slot taken: no call
  from is 'open' when this call moved the breaker open -> half-open, else ''.
]]
--- @include "redis-time-ms"
local rec = redis.call('HMGET', KEYS[1], 'state', 'until')
local state = rec[1] or 'closed'
if state == 'closed' then return { 1, '', 0 } end

local now = redisTimeMs()
local from = ''
if state == 'open' then
  local untilMs = tonumber(rec[2] or '0')
  if now < untilMs then return { 0, '', untilMs - now } end
  from = 'open'
  redis.call('HSET', KEYS[1], 'state', 'half-open', 'ok', 0, 'since', now)
  redis.call('DEL', KEYS[2])
end

-- A lease past its expiry belongs to a probe that never reported (its worker died or hung):
-- the slot is freed without counting the probe either way, so half-open cannot wedge.
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return { 3, from, 0 } end
local expiry = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[2], expiry, ARGV[1])
redis.call('PEXPIREAT', KEYS[2], expiry)
return { 2, from, 0 }
