--[[
  Reports how a probe call (a lease from acquire-2) ended. Only a live probe decides a
  half-open breaker: a failure re-opens it, ARGV[3] successes close it.

  KEYS[1] breaker hash of the channel
  KEYS[2] probe leases of the channel

  ARGV[1] lease id
  ARGV[2] kind: success (delivered) | failure (transient, unknown) | neutral (permanent)
          | not-called (the call never happened)
  ARGV[3] probe successes that close it   ARGV[4] open ms   ARGV[5] window slots

  Returns { code }
    0 released   still half-open: a success short of the threshold, or a neutral answer; the slot is free
    1 closed     this success was the last one needed: closed, with an empty window
    2 reopened   a failed probe: open for another open period
    3 expired    the lease was not held (it expired, or the breaker moved on): nothing counted
]]
--- @include "redis-time-ms"
--- @include "breaker-transitions"
local held = redis.call('ZREM', KEYS[2], ARGV[1])
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
if state ~= 'half-open' or held == 0 then return { 3 } end
local kind = ARGV[2]
if kind == 'failure' then
  openBreaker(KEYS[1], KEYS[2], redisTimeMs(), tonumber(ARGV[4]), tonumber(ARGV[5]))
  return { 2 }
end
if kind == 'success' and redis.call('HINCRBY', KEYS[1], 'ok', 1) >= tonumber(ARGV[3]) then
  closeBreaker(KEYS[1], KEYS[2], redisTimeMs(), tonumber(ARGV[5]))
  return { 1 }
end
return { 0 }
