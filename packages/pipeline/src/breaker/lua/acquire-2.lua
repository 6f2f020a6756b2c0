--[[
  Asks one channel's circuit breaker for permission to make one external call. The clock is
  Redis's (TIME), so every process agrees on when an open period ends.

  KEYS[1] breaker hash of the channel   fields: state, until, ok, since, w<slot>, win, slots
  KEYS[2] probe leases of the channel   sorted set: lease id -> expiry (ms)

  ARGV[1] lease id (unique per call; held only if this call becomes a probe)
  ARGV[2] probes: leases allowed at once while half-open
  ARGV[3] probe lease ms: a probe that never reports frees its slot after this

  Returns { verdict, state, from }
    verdict 0 refused   open, or half-open with every probe slot taken
            1 allowed   closed: an ordinary call, no lease
            2 probe     half-open: the call holds lease ARGV[1] and must report
    state   closed | half-open | open, after this call
    from    the previous state when this call moved it (open -> half-open), else ''
]]
local rec = redis.call('HMGET', KEYS[1], 'state', 'until')
local state = rec[1] or 'closed'
if state == 'closed' then return { 1, 'closed', '' } end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local from = ''
if state == 'open' then
  if now < tonumber(rec[2] or '0') then return { 0, 'open', '' } end
  state = 'half-open'
  from = 'open'
  redis.call('HSET', KEYS[1], 'state', 'half-open', 'ok', 0, 'since', now)
  redis.call('DEL', KEYS[2])
end

-- A lease past its expiry belongs to a probe that never reported (its worker died or hung):
-- the slot is freed without counting the probe either way, so half-open cannot wedge.
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return { 0, 'half-open', from } end
local expiry = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[2], expiry, ARGV[1])
redis.call('PEXPIREAT', KEYS[2], expiry)
return { 2, 'half-open', from }
