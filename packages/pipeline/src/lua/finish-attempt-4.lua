--[[
  Records the outcome of step ARGV[1]. A delivery sets the delivered marker (status
  'delivered') in the same step, so no later job can start another call, and erases the
  addresses (the record is terminal). A step that spent nothing (ARGV[8] = 0: the request
  provably never left, or the message could not be rendered) gives its call back.

  KEYS[1] notification record hash
  KEYS[2] suppression key of (recipient, channel)
  KEYS[3] archive queue (sorted set id -> when it became terminal, ms)
  KEYS[4] pending set (id -> last progress, ms): a delivered notification leaves it here, so
          the sweeper only ever reads open ones (at the peak it could not keep up otherwise)

  ARGV[1] step   ARGV[2] outcome (delivered | transient | permanent | unknown | processing-error)
  ARGV[3] error class   ARGV[4] message   ARGV[5] now (ms)   ARGV[6] duration (ms)
  ARGV[7] suppression TTL (s, 0 = off)   ARGV[8] spent (1 | 0)
  ARGV[9] archive (1: history on, a delivered record joins the archive queue | 0)
  ARGV[10] notification id
  ARGV[11] the provider's message id ('' or absent: none), kept on the attempt for receipts
  ARGV[12] the suppression's reason (core's SUPPRESSION_REASONS)
  ARGV[13] suppression index prefix   ARGV[14] its member (recipient hash:channel)

  Returns { code, detail... }
    0 recorded   { 0, acceptedAt, calls }
    1 stale      the attempt is not open (already finished, or the record moved on)
    4 missing    no record
]]
--- @include "erase-addresses"
--- @include "record-suppression"
-- One read and one write of the record (this runs once per call at the peak): every record has
-- its id from intake on, so a hash without one is no record.
local attemptField = 'a:' .. ARGV[1]
local rec = redis.call('HMGET', KEYS[1], 'id', attemptField, 'acceptedAt', 'calls')
if not rec[1] then return { 4 } end
local raw = rec[2]
if not raw then return { 1 } end
local attempt = cjson.decode(raw)
if attempt['outcome'] ~= nil then return { 1 } end
attempt['outcome'] = ARGV[2]
if ARGV[3] ~= '' then attempt['errorClass'] = ARGV[3] end
if ARGV[4] ~= '' then attempt['message'] = ARGV[4] end
attempt['finishedAt'] = tonumber(ARGV[5])
attempt['durationMs'] = tonumber(ARGV[6])
if ARGV[11] ~= nil and ARGV[11] ~= '' then attempt['providerMessageId'] = ARGV[11] end
local calls = tonumber(rec[4]) or 0
local writes = { attemptField, '' }
if ARGV[8] == '0' then
  attempt['spent'] = false
  calls = calls - 1
  writes[#writes + 1] = 'calls'
  writes[#writes + 1] = calls
end
writes[2] = cjson.encode(attempt)
if ARGV[2] == 'delivered' then
  writes[#writes + 1] = 'status'
  writes[#writes + 1] = 'delivered'
  writes[#writes + 1] = 'deliveredChannel'
  writes[#writes + 1] = attempt['channel']
  writes[#writes + 1] = 'deliveredAt'
  writes[#writes + 1] = ARGV[5]
  writes[#writes + 1] = 'finishedAt'
  writes[#writes + 1] = ARGV[5]
end
redis.call('HSET', KEYS[1], unpack(writes))
if ARGV[2] == 'delivered' then
  eraseAddresses(KEYS[1])
  if ARGV[9] == '1' then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[10]) end
  redis.call('ZREM', KEYS[4], ARGV[10])
elseif ARGV[2] == 'permanent' and tonumber(ARGV[7]) > 0 then
  recordSuppression(KEYS[1], KEYS[2], ARGV[13], ARGV[14], ARGV[12], ARGV[5], ARGV[7])
end
return { 0, rec[3], calls }
