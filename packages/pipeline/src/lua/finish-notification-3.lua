--[[
  Ends a notification without a delivery: 'failed' (budget spent, every channel refused
  permanently, no channel before the maximum age, a processing error BullMQ gave up on) or
  'unconfirmed' (an unknown outcome that could not be settled). Never overrides a terminal
  status. Erases the addresses (their hashes stay).

  KEYS[1] notification record hash
  KEYS[2] archive queue (sorted set id -> when it became terminal, ms)
  KEYS[3] pending set (id -> last progress, ms): a terminal notification leaves it

  ARGV[1] from step   ARGV[2] status (failed | unconfirmed | expired | opted-out)   ARGV[3] reason   ARGV[4] now (ms)
  ARGV[5] skips to append (JSON array)
  ARGV[6] archive (1: history on, the record joins the archive queue | 0)   ARGV[7] notification id

  Returns
    0 ended     the record is now terminal
    1 stale     the record moved on from ARGV[1], or is terminal already
    4 missing   no record
]]
--- @include "is-terminal"
--- @include "append-skips"
--- @include "erase-addresses"
if redis.call('EXISTS', KEYS[1]) == 0 then return 4 end
local rec = redis.call('HMGET', KEYS[1], 'status', 'step', 'skips')
if isTerminal(rec[1]) then return 1 end
if tonumber(rec[2]) ~= tonumber(ARGV[1]) then return 1 end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'reason', ARGV[3], 'finishedAt', ARGV[4], 'skips', appendSkips(rec[3], ARGV[5]))
eraseAddresses(KEYS[1])
if ARGV[6] == '1' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[7]) end
redis.call('ZREM', KEYS[3], ARGV[7])
return 0
