--[[
  Applies one provider event (a receipt, a bounce, a complaint) to the attempt that sent the
  message, and settles what it settles (docs/provider-events.md). Every key is on the
  notification's partition; the event-id key makes the same event twice one change. Only the
  provider that made the attempt may change it: its name and channel are checked here, in the
  same step as the change, so an event authenticated as one provider never moves another's.

  KEYS[1] notification record hash
  KEYS[2] suppression key of (recipient, the attempt's channel)
  KEYS[3] event-id key of (provider, notification, event id) (SET NX with a TTL)
  KEYS[4] archive queue (sorted set id -> when it became terminal, ms)

  ARGV[1] provider message id   ARGV[2] kind (delivered | undeliverable | expired | bounced | complained)
  ARGV[3] bounce type (hard | soft | '')   ARGV[4] when the provider says it happened (ms)
  ARGV[5] detail (short)   ARGV[6] now (ms)   ARGV[7] suppression TTL (s, 0 = off)
  ARGV[8] event-id key TTL (s)   ARGV[9] archive (1: history on | 0)   ARGV[10] notification id
  ARGV[11] step of the attempt that carries ARGV[1]
  ARGV[12] provider the event authenticated as   ARGV[13] that provider's channel
  ARGV[14] suppression index prefix   ARGV[15] its member (recipient hash:channel)

  Returns { code, detail... }
    0 applied     { 0, status after, status before, channel, suppressed (1 | 0) }
    2 duplicate   this event was applied already
    3 unmatched   no attempt of the record carries that message id
    4 missing     no record
    5 mismatch    the attempt was made by another provider or on another channel: nothing changed
]]
--- @include "is-terminal"
--- @include "erase-addresses"
--- @include "record-suppression"
if redis.call('EXISTS', KEYS[1]) == 0 then return { 4 } end
local attemptField = 'a:' .. ARGV[11]
local raw = redis.call('HGET', KEYS[1], attemptField)
if not raw then return { 3 } end
local attempt = cjson.decode(raw)
if attempt['providerMessageId'] ~= ARGV[1] then return { 3 } end
-- Attempts recorded before providers had names carry none: theirs is the channel's default simulator.
if (attempt['provider'] or attempt['channel']) ~= ARGV[12] or attempt['channel'] ~= ARGV[13] then return { 5 } end
if redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[8]) == false then return { 2 } end

local kind = ARGV[2]
local at = tonumber(ARGV[4])
local entry = { kind = kind, at = at }
if ARGV[5] ~= '' then entry['detail'] = ARGV[5] end
if ARGV[3] ~= '' then entry['bounceType'] = ARGV[3] end
local list = attempt['receipts']
if type(list) ~= 'table' or list[1] == nil then list = {} end
-- The history keeps every receipt; a runaway provider cannot grow a record without bound.
if #list < 20 then table.insert(list, entry) end
attempt['receipts'] = list
attempt['receipt'] = kind
attempt['receiptAt'] = at
if ARGV[5] ~= '' then attempt['receiptDetail'] = ARGV[5] else attempt['receiptDetail'] = nil end
redis.call('HSET', KEYS[1], attemptField, cjson.encode(attempt))

local before = redis.call('HGET', KEYS[1], 'status')
local after = before
local now = ARGV[6]
local hard = kind == 'complained' or (kind == 'bounced' and ARGV[3] ~= 'soft')
local suppressed = 0
if hard then
  -- Sent, then refused by the mailbox (or reported as spam): the record says so, whatever it said.
  if before == 'delivered' or before == 'unconfirmed' then
    after = kind
    redis.call('HSET', KEYS[1], 'status', after, 'reason', kind == 'bounced' and 'hard-bounce' or 'complaint')
  end
  if tonumber(ARGV[7]) > 0 then
    recordSuppression(KEYS[1], KEYS[2], ARGV[14], ARGV[15], kind == 'complained' and 'complaint' or 'bounce', now, ARGV[7])
    suppressed = 1
  end
elseif kind == 'delivered' and attempt['outcome'] == 'unknown' and (before == 'unconfirmed' or before == 'retry-scheduled' or before == 'routing') then
  -- A late receipt for a call whose answer never came: it was delivered; no step runs after this.
  after = 'delivered'
  redis.call('HSET', KEYS[1], 'status', 'delivered', 'deliveredChannel', attempt['channel'], 'deliveredAt', tostring(at), 'finishedAt', now)
  redis.call('HDEL', KEYS[1], 'reason')
  eraseAddresses(KEYS[1])
  if not isTerminal(before) and ARGV[9] == '1' then redis.call('ZADD', KEYS[4], now, ARGV[10]) end
elseif (kind == 'undeliverable' or kind == 'expired') and attempt['outcome'] == 'unknown' and before == 'unconfirmed' then
  after = 'failed'
  redis.call('HSET', KEYS[1], 'status', 'failed', 'reason', 'receipt-' .. kind)
end
return { 0, after, before, attempt['channel'], suppressed }
