--[[
  Adds one process's folded outcomes of ordinary calls (made while the breaker read closed) to
  the channel's window, and opens the breaker when the window meets the rule: at least ARGV[5]
  counted calls and failures >= ARGV[6] x calls. Neutral outcomes (permanent) are never sent.

  KEYS[1] breaker hash of the channel   fields: state, until, ok, since, w<slot>, win, slots
  KEYS[2] probe leases of the channel   (cleared when it opens)

  ARGV[1] calls (successes + failures)   ARGV[2] failures among them
  ARGV[3] window ms   ARGV[4] window slots   ARGV[5] min calls   ARGV[6] failure ratio   ARGV[7] open ms

  Returns { code, ... }
    0 counted   { 0, calls, failures, failuresToTrip }  closed still; the window's sums, and how many
                                                       more failures alone would open it (-1: none would)
    1 opened    { 1, calls, failures, reopensInMs }     the window met the rule: open now
    2 ignored   { 2, state }                            not closed: late answers say nothing new
]]
--- @include "redis-time-ms"
--- @include "breaker-transitions"
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
if state ~= 'closed' then return { 2, state } end
local addCalls, addFailures = tonumber(ARGV[1]), tonumber(ARGV[2])
local windowMs, slots = tonumber(ARGV[3]), tonumber(ARGV[4])
local minCalls, ratio, openMs = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local now = redisTimeMs()
if addCalls > 0 then windowAdd(KEYS[1], now, windowMs, slots, addCalls, addFailures) end
local calls, failures = windowCounts(KEYS[1], now, windowMs, slots)

local function trips(c, f) return c >= minCalls and f >= ratio * c end
-- Like a breaker that decides on every call, only a batch holding a failure can open it.
if addFailures > 0 and trips(calls, failures) then
  openBreaker(KEYS[1], KEYS[2], now, openMs, slots)
  return { 1, calls, failures, openMs }
end

-- The least number of further failures (and nothing else) that would meet the rule.
local more = math.max(1, minCalls - calls)
if ratio < 1 then
  more = math.max(more, math.ceil((ratio * calls - failures) / (1 - ratio)))
elseif failures < calls then
  more = -1
end
if more > 0 then
  while not trips(calls + more, failures + more) do more = more + 1 end
end
return { 0, calls, failures, more }
