--[[
  Cancels a notification for its tenant, decided atomically against begin-attempt-4 (both run
  on the record's slot): it refuses while a provider call may be in flight or may have
  delivered (the current step's attempt has no outcome, or an unknown one, or the step is a
  reconciliation of one), and otherwise makes the record terminal 'canceled' the way
  finish-notification-3 ends one. begin-attempt refuses a terminal record, so after this no
  provider is called.

  KEYS[1] notification record hash
  KEYS[2] archive queue (sorted set id -> when it became terminal, ms)
  KEYS[3] pending set (id -> last progress, ms): a terminal notification leaves it
  KEYS[4] due index of scheduled notifications (id -> sendAt, ms): a canceled one leaves it
  KEYS[5] pending-urgent sorted set: an urgent one canceled before its first step leaves it

  ARGV[1] tenant   ARGV[2] now (ms)   ARGV[3] reason
  ARGV[4] archive (1: history on, the record joins the archive queue | 0)   ARGV[5] notification id

  Returns { code, detail... }
    0 canceled      { 0, priority }: the record is now terminal 'canceled'
    1 already       it was canceled before (a repeated cancel answers as the first did)
    2 refused       { 2, state }: 'sending' (a call in flight or unsettled) or its terminal status
    4 missing       no record for this tenant (unknown, another tenant's, or archived)
]]
--- @include "is-terminal"
--- @include "erase-addresses"
local rec = redis.call('HMGET', KEYS[1], 'id', 'tenant', 'status', 'step', 'kind', 'priority')
if not rec[1] or rec[2] ~= ARGV[1] then return { 4 } end
local status = rec[3]
if status == 'canceled' then return { 1 } end
if isTerminal(status) then return { 2, status } end
if rec[5] == 'reconcile' then return { 2, 'sending' } end
local raw = redis.call('HGET', KEYS[1], 'a:' .. rec[4])
if raw then
  local outcome = cjson.decode(raw)['outcome']
  if outcome == nil or outcome == 'unknown' then return { 2, 'sending' } end
end
redis.call('HSET', KEYS[1], 'status', 'canceled', 'reason', ARGV[3], 'finishedAt', ARGV[2])
eraseAddresses(KEYS[1])
if ARGV[4] == '1' then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5]) end
redis.call('ZREM', KEYS[3], ARGV[5])
redis.call('ZREM', KEYS[4], ARGV[5])
redis.call('ZREM', KEYS[5], ARGV[5])
return { 0, rec[6] }
