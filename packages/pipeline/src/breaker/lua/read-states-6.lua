--[[
  Reads every channel's breaker without changing any: the gate's periodic refresh, the
  gauges, the chaos CLI and scenario timelines. An open breaker past its open period reads as
  half-open (since the period ended); the next acquire-2 records that move.

  KEYS[1..3] breaker hashes of push, sms, email (CHANNELS order)
  KEYS[4..6] their probe leases

  ARGV none

  Returns { code, now, then per channel: state, reopensInMs, since, windowCalls, windowFailures, probesInFlight }
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
