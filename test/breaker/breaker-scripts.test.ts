import { join } from 'node:path';
import { Redis } from 'ioredis';
import { breakerKey, breakerProbesKey } from '@notify/core';
import {
  ACQUIRE_CODES,
  ADD_OUTCOMES_CODES,
  BREAKER_LUA_DIR,
  BREAKER_SCRIPTS,
  READ_STATES_CODES,
  REPORT_PROBE_CODES,
  loadBreakerScripts,
  readBreakerStates,
  type BreakerScripts,
  type ReturnCodes,
} from '@notify/pipeline';
import { startPrivateRedis, type PrivateRedis } from '@notify/platform-kit';
import { headerReturnCodes } from '../pipeline/scripts/lua-header';
import { FAST_BREAKER } from './gate-fixtures';

/**
 * Each breaker script called directly against a private Redis, one test per return code
 * (FAST_BREAKER: window 1 s in 10 slots, min 10 calls, ratio 0.5, open 300 ms, 2 probes,
 * 2 successes close, lease 600 ms).
 */
let server: PrivateRedis;
let redis: Redis;
let scripts: BreakerScripts;
const key = breakerKey('push');
const probes = breakerProbesKey('push');

beforeAll(async () => {
  server = await startPrivateRedis({ persistence: 'none' });
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  scripts = loadBreakerScripts(redis, FAST_BREAKER);
});
beforeEach(async () => {
  await redis.flushdb();
});
afterAll(async () => {
  await redis?.quit();
  await server?.stop();
});

const CONSTANTS: Record<(typeof BREAKER_SCRIPTS)[number], ReturnCodes> = {
  'acquire-2': ACQUIRE_CODES,
  'report-probe-2': REPORT_PROBE_CODES,
  'add-outcomes-2': ADD_OUTCOMES_CODES,
  'read-states-n': READ_STATES_CODES,
};

describe.each(BREAKER_SCRIPTS)('%s.lua', (script) => {
  it('lists in its header exactly the return codes its TypeScript constant names', () => {
    expect(headerReturnCodes(join(BREAKER_LUA_DIR, `${script}.lua`))).toEqual({ ...CONSTANTS[script] });
  });
});

const time = async () => {
  const [s, us] = await redis.time();
  return Number(s) * 1_000 + Math.floor(Number(us) / 1_000);
};
/** Puts push open until `untilMs` (Redis time), as add-outcomes-2 leaves it. */
const openUntil = async (untilMs: number) => redis.hset(key, 'state', 'open', 'until', untilMs, 'ok', 0, 'since', untilMs - 300);
const halfOpen = async () => redis.hset(key, 'state', 'half-open', 'ok', 0, 'since', await time());
const lease = (id: string) => scripts.acquire({ breaker: 'push', leaseId: id });

describe('acquire-2.lua', () => {
  it('allowed: a closed breaker lets an ordinary call through and holds no lease', async () => {
    await expect(lease('l1')).resolves.toEqual({ code: 'allowed' });
    expect(await redis.exists(probes)).toBe(0);
  });

  it('refused: open within its period, with the time left', async () => {
    await openUntil((await time()) + 5_000);
    const reply = await lease('l1');
    expect(reply.code).toBe('refused');
    expect(reply.code === 'refused' && reply.reopensInMs).toBeGreaterThan(4_000);
  });

  it('probe: open past its period moves to half-open and the call holds a lease', async () => {
    await openUntil((await time()) - 1);
    await expect(lease('l1')).resolves.toEqual({ code: 'probe', movedFromOpen: true });
    expect(await redis.hget(key, 'state')).toBe('half-open');
    expect(await redis.zscore(probes, 'l1')).not.toBeNull();
    await expect(lease('l2')).resolves.toEqual({ code: 'probe', movedFromOpen: false });
  });

  it('busy: half-open with every probe slot leased', async () => {
    await halfOpen();
    await lease('l1');
    await lease('l2');
    await expect(lease('l3')).resolves.toEqual({ code: 'busy', movedFromOpen: false });
    expect(await redis.zcard(probes)).toBe(FAST_BREAKER.probes);
  });
});

describe('report-probe-2.lua', () => {
  const report = (leaseId: string, kind: 'success' | 'failure' | 'neutral' | 'not-called') => scripts.reportProbe({ breaker: 'push', leaseId, kind });

  it('released: a success short of the threshold, or a neutral answer, frees the slot and stays half-open', async () => {
    await halfOpen();
    await lease('l1');
    await lease('l2');
    await expect(report('l1', 'success')).resolves.toEqual({ code: 'released' });
    await expect(report('l2', 'neutral')).resolves.toEqual({ code: 'released' });
    expect(await redis.hget(key, 'state')).toBe('half-open');
    expect(await redis.zcard(probes)).toBe(0);
  });

  it('closed: the last success needed closes it with an empty window', async () => {
    await halfOpen();
    await lease('l1');
    await lease('l2');
    await report('l1', 'success');
    await expect(report('l2', 'success')).resolves.toEqual({ code: 'closed' });
    expect(await redis.hmget(key, 'state', 'until')).toEqual(['closed', null]);
  });

  it('reopened: a failed probe opens it for another period', async () => {
    await halfOpen();
    await lease('l1');
    const before = await time();
    await expect(report('l1', 'failure')).resolves.toEqual({ code: 'reopened' });
    expect(await redis.hget(key, 'state')).toBe('open');
    expect(Number(await redis.hget(key, 'until'))).toBeGreaterThanOrEqual(before + FAST_BREAKER.openMs);
  });

  it('expired: a lease not held (expired, or the breaker moved on) counts for nothing', async () => {
    await halfOpen();
    await expect(report('never-leased', 'failure')).resolves.toEqual({ code: 'expired' });
    expect(await redis.hget(key, 'state')).toBe('half-open');
  });
});

describe('add-outcomes-2.lua', () => {
  const add = (calls: number, failures: number) => scripts.addOutcomes({ breaker: 'push', calls, failures });

  it('counted: adds to the window and says how many failures alone would open it', async () => {
    await expect(add(4, 1)).resolves.toEqual({ code: 'counted', calls: 4, failures: 1, failuresToTrip: 6 });
    // 20 calls, 5 failures: 10 more failures make 15 of 30 (ratio 0.5); 9 would not.
    await expect(add(16, 4)).resolves.toEqual({ code: 'counted', calls: 20, failures: 5, failuresToTrip: 10 });
    const { breakers } = await readBreakerStates(redis);
    expect(breakers.push).toMatchObject({ state: 'closed', windowCalls: 20, windowFailures: 5 });
  });

  it('opened: the window meets the rule (minimum volume and ratio) in one report', async () => {
    await add(9, 9);
    const reply = await add(1, 1);
    expect(reply).toEqual({ code: 'opened', calls: 10, failures: 10, reopensInMs: FAST_BREAKER.openMs });
    expect(await redis.hget(key, 'state')).toBe('open');
    // Only a report holding a failure can open it, as a breaker deciding on every call.
    await redis.flushdb();
    await add(9, 9);
    await expect(add(1, 0)).resolves.toMatchObject({ code: 'counted', calls: 10, failures: 9 });
  });

  it('ignored: not closed, so late answers of ordinary calls say nothing new', async () => {
    await openUntil((await time()) + 5_000);
    await expect(add(50, 50)).resolves.toEqual({ code: 'ignored', state: 'open' });
    await halfOpen();
    await expect(add(50, 0)).resolves.toEqual({ code: 'ignored', state: 'half-open' });
  });
});

describe('read-states-n.lua', () => {
  it('read: every channel without changing any; open past its period reads as half-open', async () => {
    await scripts.addOutcomes({ breaker: 'sms', calls: 3, failures: 1 });
    const now = await time();
    await openUntil(now - 10);
    const reading = await readBreakerStates(redis);
    expect(reading.now).toBeGreaterThanOrEqual(now);
    expect(reading.breakers.push).toMatchObject({ state: 'half-open', since: now - 10, probesInFlight: 0 });
    expect(reading.breakers.sms).toMatchObject({ state: 'closed', windowCalls: 3, windowFailures: 1 });
    expect(reading.breakers.email).toEqual({ state: 'closed', reopensInMs: 0, since: undefined, windowCalls: 0, windowFailures: 0, probesInFlight: 0 });
    expect(await redis.hget(key, 'state')).toBe('open');
  });
});
