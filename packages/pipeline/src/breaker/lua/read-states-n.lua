--[[
  Reads every breaker (one per provider) without changing any: the gate's periodic refresh,
  the gauges, the chaos CLI and scenario timelines. An open breaker past its open period reads as
  half-open (since the period ended); the next acquire-2 records that move.

  Variadic (called with the key count first): 2N keys for N breakers.
  KEYS[1..N]    breaker hashes, in the caller's order
  KEYS[N+1..2N] their probe leases

  ARGV none

  Returns { code, now, then per breaker: state, reopensInMs, since, windowCalls, windowFailures, probesInFlight }
    0 read   now: Redis time (ms); since: '' when it never moved; window sums only while closed
]]
--- @include "redis-time-ms"
--- @include "breaker-window"
local now = redisTimeMs()
local result = { 0, now }
local channels = #KEYS / 2
for i = 1, channels do
  local rec = redis.call('HMGET', KEYS[i], 'state', 'until', 'since', 'win', 'slots')
  local state = rec[1] or 'closed'
  local untilMs = tonumber(rec[2] or '0') or 0
  local since = rec[3] or ''
  if state == 'open' and now >= untilMs then
    state = 'half-open'
    since = untilMs
  end
  local calls, failures, probing, reopens = 0, 0, 0, 0
  if state == 'closed' and rec[4] and rec[5] then calls, failures = windowCounts(KEYS[i], now, tonumber(rec[4]), tonumber(rec[5])) end
  if state == 'half-open' then probing = redis.call('ZCOUNT', KEYS[i + channels], '(' .. now, '+inf') end
  if state == 'open' then reopens = untilMs - now end
  for _, v in ipairs({ state, reopens, since, calls, failures, probing }) do result[#result + 1] = v end
end
return result
