--[[
  Reads the effective state of the three channels' breakers in one round trip (intake's
  openChannels(), the gauges, the chaos CLI). Read-only: an open breaker whose open period is
  over reads as half-open; the next acquire-2 makes that transition.

  KEYS[1..3] breaker hashes of push, sms, email (in CHANNELS order)

  ARGV none

  Returns { now, state1, until1, state2, until2, state3, until3 }
    now     Redis time (ms)
    state   closed | half-open | open
    until   end of the open period (ms), 0 when not open
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local result = { now }
for i = 1, #KEYS do
  local rec = redis.call('HMGET', KEYS[i], 'state', 'until')
  local state = rec[1] or 'closed'
  local untilMs = tonumber(rec[2] or '0') or 0
  if state == 'open' and now >= untilMs then state = 'half-open' end
  if state ~= 'open' then untilMs = 0 end
  result[#result + 1] = state
  result[#result + 1] = untilMs
end
return result
