--[[
  Moves a notification to its next step (after a failed or skipped one). Only the step that
  is current may advance it, so a re-run of an old job cannot fork the cascade.

  KEYS[1] notification record hash
  KEYS[2..4] suppression keys of (recipient, push / sms / email)
  KEYS[5] the recipient's opt-out hash

  ARGV[1] from step (current)   ARGV[2] next step   ARGV[3] next channel
  ARGV[4] kind ('send' | 'reconcile')   ARGV[5] skips to append (JSON array)
  ARGV[6] status to show ('routing' | 'retry-scheduled')
  ARGV[7] a wait to append to 'waits' (JSON { reason, at, until }), or '' for none; only the
          newest MAX_WAITS are kept, so a record's size stays bounded however often it waits
  ARGV[8] a send's candidate channels in cascade order (comma-separated; '' = ARGV[3], unchecked):
          the step goes to the first one neither suppressed nor opted out, the others' skips appended
  ARGV[9] the category whose opt-outs are read ('' = none: required, or the tenant has none)
  ARGV[10] now (ms), the found skips' time

  Returns
    0 scheduled   { 0, channel, skips found ('channel:reason,...') }
    1 stale       another run already moved it, or it is terminal
    4 missing     no record
]]
--- @include "is-terminal"
--- @include "append-skips"
--- @include "first-open-channel"
if redis.call('EXISTS', KEYS[1]) == 0 then return 4 end
local MAX_WAITS = 8
local rec = redis.call('HMGET', KEYS[1], 'status', 'step', 'skips', 'waits')
if isTerminal(rec[1]) then return 1 end
if tonumber(rec[2]) ~= tonumber(ARGV[1]) then return 1 end
local channel, skips, found = ARGV[3], appendSkips(rec[3], ARGV[5]), ''
if ARGV[8] and ARGV[8] ~= '' then
  local optOutKey = ARGV[9] ~= '' and KEYS[5] or ''
  local open, skipped = firstOpenChannel(ARGV[8], { push = KEYS[2], sms = KEYS[3], email = KEYS[4] }, optOutKey, ARGV[9], tonumber(ARGV[10]))
  if open and #skipped > 0 then channel, skips, found = open, appendSkips(skips, cjson.encode(skipped)), skipsText(skipped) end
end
redis.call('HSET', KEYS[1], 'step', ARGV[2], 'chan', channel, 'kind', ARGV[4], 'status', ARGV[6], 'skips', skips)
if ARGV[7] and ARGV[7] ~= '' then
  local waits = cjson.decode(rec[4] or '[]')
  table.insert(waits, cjson.decode(ARGV[7]))
  while #waits > MAX_WAITS do table.remove(waits, 1) end
  redis.call('HSET', KEYS[1], 'waits', cjson.encode(waits))
end
return { 0, channel, found }
