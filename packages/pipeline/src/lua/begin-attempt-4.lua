--[[
  Opens external call number ARGV[1] of a notification, after checking that it may happen:
  the delivered marker (status) is checked here, atomically with recording the attempt. The
  call is counted ('calls') now; finish-attempt gives it back when it provably never left.

  KEYS[1] notification record hash
  KEYS[2] suppression key of (recipient, this channel)
  KEYS[3] pending sorted set (id -> when it last made progress): a notification stays in it
          until it is terminal, so the intake sweeper can re-create a step job lost with a
          failed-over master (docs/cluster.md, Failover); a step beginning refreshes its entry
  KEYS[4] idempotency meta hash (finds an archived record's compact entry; read only for a
          job whose record is gone)

  ARGV[1] step (1-based)   ARGV[2] channel   ARGV[3] now (ms)   ARGV[4] budget (max calls)
  ARGV[5] notification id   ARGV[6] provider making the call ('' = unnamed)
  ARGV[7] in-flight lease (ms; 0 = none)   ARGV[8] id of the BullMQ job running the step ('' = unknown)
  ARGV[9] idempotency bucket key prefix

  Returns { code, detail... }
    0 proceed      { 0, content, addresses, tenant }: make the call (the tenant spares the
                   webhook hook a read of its own when the step ends)
    1 terminal     already delivered, failed or unconfirmed: do nothing
    2 stale        this job is behind the record (re-run of an old step)
    3 crashed      this step was started before and never finished: the worker died
                   mid-call; it is now marked unknown / worker-lost
    4 missing      no record and no compact entry (expired or never created)
    5 suppressed   the recipient failed permanently on this channel before (a send only: a
                   reconciliation re-asks about a call already made, under the same key, and
                   is no new send, so a suppression written since does not block it)
    6 budget       no calls left (defensive: the scheduler should not get here)
    7 busy         another job opened this step less than the lease ago and may still be in
                   the call: do nothing (that job finishes it, or BullMQ's stalled check re-runs
                   it, which then answers crashed). A first step can be in two jobs at once (a
                   batch job and a re-added single one); a re-run of the SAME job means its
                   previous run is over (a retry after a throw, a stalled re-run): crashed.
                   The lease is the worker's lockDuration / 2: BullMQ renews a job's lock every
                   lockDuration / 2, so a dead worker's job is re-run at least that long after
                   its attempt began.
    8 archived     no record, but its compact idempotency entry: the notification ended and
                   was archived (compact-archived-2); a late job of it (a delayed step, the
                   other copy of a first step, a stalled re-run) has nothing to do
    9 expired      its expiresAt has passed: no call (a send or a reconciliation) opens; the
                   caller ends it 'expired' (finish-notification-3)
]]
--- @include "is-terminal"
--- @include "idempotency-entries"
-- One read of the record for the common case (this runs once per call at the peak): every
-- record has its id from intake on, so a hash without one is no record. The content and
-- addresses are read here too: nearly every begin proceeds.
local attemptField = 'a:' .. ARGV[1]
local rec = redis.call('HMGET', KEYS[1], 'id', 'status', 'step', 'calls', 'chan', attemptField, 'kind', 'content', 'addresses', 'tenant', 'expiresAt')
if not rec[1] then
  redis.call('ZREM', KEYS[3], ARGV[5])
  -- A late job runs within a delay or a lock's lapse of its record's end: yesterday's and
  -- today's entries cover it.
  if idemLookup(KEYS[4], ARGV[9], ARGV[5], tonumber(ARGV[3]), 86400) then return { 8 } end
  return { 4 }
end
local status, step, calls = rec[2], tonumber(rec[3]), tonumber(rec[4])
if isTerminal(status) then
  redis.call('ZREM', KEYS[3], ARGV[5])
  return { 1 }
end
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[5])
local wanted = tonumber(ARGV[1])
if step ~= wanted or rec[5] ~= ARGV[2] then return { 2 } end

local previous = rec[6]
if previous then
  local attempt = cjson.decode(previous)
  if attempt['outcome'] == nil then
    local holder = redis.call('HGET', KEYS[1], 'j:' .. ARGV[1])
    local lease = tonumber(ARGV[7]) or 0
    if holder and ARGV[8] ~= '' and holder ~= ARGV[8] and tonumber(ARGV[3]) - (attempt['startedAt'] or 0) < lease then
      return { 7 }
    end
    attempt['outcome'] = 'unknown'
    attempt['errorClass'] = 'worker-lost'
    attempt['message'] = 'the worker stopped during the call; outcome unknown, reconciling'
    attempt['finishedAt'] = tonumber(ARGV[3])
    redis.call('HSET', KEYS[1], attemptField, cjson.encode(attempt))
    return { 3 }
  end
  return { 2 }
end

local expiresAt = tonumber(rec[11])
if expiresAt and tonumber(ARGV[3]) >= expiresAt then return { 9 } end
if rec[7] ~= 'reconcile' and redis.call('EXISTS', KEYS[2]) == 1 then return { 5 } end
if calls >= tonumber(ARGV[4]) then return { 6 } end

local attempt = { step = wanted, channel = ARGV[2], kind = rec[7], startedAt = tonumber(ARGV[3]) }
if ARGV[6] ~= '' then attempt['provider'] = ARGV[6] end
-- j:<step> names the job that opened the attempt (for `busy`; absent when the caller named none).
local writes = { attemptField, cjson.encode(attempt), 'calls', calls + 1, 'status', 'sending' }
if ARGV[8] ~= '' then
  writes[#writes + 1] = 'j:' .. ARGV[1]
  writes[#writes + 1] = ARGV[8]
end
redis.call('HSET', KEYS[1], unpack(writes))
return { 0, rec[8], rec[9], rec[10] }
