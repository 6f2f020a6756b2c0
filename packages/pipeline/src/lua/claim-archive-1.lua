--[[
  Claims up to ARGV[1] terminal notifications for the history store: entries of the archive
  queue that are due (score <= Redis's clock) get a lease (score = now + ARGV[2]), so several
  archivers share the queue and a crashed archiver's batch is due again when its lease ends.
  One variadic ZADD per 1,000 ids, not one call per id. The records are read by the archiver
  in a pipelined HGETALL each: returning them from this script (HGETALL in Lua) measured 29.6 µs
  of Redis CPU per record against 3.9 + 7.2 µs for the claim and the pipeline
  (bench/history/redis-steps.ts, docs/benchmarks-history.md).

  KEYS[1] archive queue (sorted set id -> when it is due, ms)

  ARGV[1] batch size   ARGV[2] lease (ms)

  Returns { code, detail... }
    0 claimed   { 0, id... }: the claimed ids, oldest first (none when nothing is due)
]]
--- @include "redis-time-ms"
local now = redisTimeMs()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local leaseEnd = now + tonumber(ARGV[2])
-- One variadic ZADD per 1,000 ids (Lua's unpack has a stack limit).
local args = {}
for i, id in ipairs(ids) do
  args[#args + 1] = leaseEnd
  args[#args + 1] = id
  if #args >= 2000 or i == #ids then
    redis.call('ZADD', KEYS[1], 'XX', unpack(args))
    args = {}
  end
end
return { 0, unpack(ids) }
