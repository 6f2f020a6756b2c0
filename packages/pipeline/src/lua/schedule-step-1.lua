--[[
  Moves a notification to its next step (after a failed or skipped one). Only the step that
  is current may advance it, so a re-run of an old job cannot fork the cascade.

  KEYS[1] notification record hash

  ARGV[1] from step (current)   ARGV[2] next step   ARGV[3] next channel
  ARGV[4] kind ('send' | 'reconcile')   ARGV[5] skips to append (JSON array)
  ARGV[6] status to show ('routing' | 'retry-scheduled')
  ARGV[7] a wait to append to 'waits' (JSON { reason, at, until }), or '' for none; only the
          newest MAX_WAITS are kept, so a record's size stays bounded however often it waits

  Returns
    0 scheduled
    1 stale       another run already moved it, or it is terminal
    4 missing     no record
]]
--- @include "is-terminal"
--- @include "append-skips"
if redis.call('EXISTS', KEYS[1]) == 0 then return 4 end
local MAX_WAITS = 8
local rec = redis.call('HMGET', KEYS[1], 'status', 'step', 'skips', 'waits')
if isTerminal(rec[1]) then return 1 end
if tonumber(rec[2]) ~= tonumber(ARGV[1]) then return 1 end
redis.call('HSET', KEYS[1], 'step', ARGV[2], 'chan', ARGV[3], 'kind', ARGV[4], 'status', ARGV[6],
  'skips', appendSkips(rec[3], ARGV[5]))
if ARGV[7] and ARGV[7] ~= '' then
  local waits = cjson.decode(rec[4] or '[]')
  table.insert(waits, cjson.decode(ARGV[7]))
  while #waits > MAX_WAITS do table.remove(waits, 1) end
  redis.call('HSET', KEYS[1], 'waits', cjson.encode(waits))
end
return 0
