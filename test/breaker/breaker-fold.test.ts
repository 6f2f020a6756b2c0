import { readBreakerSnapshots } from '@notify/pipeline';
import { startPrivateRedis, waitFor, type PrivateRedis } from '@notify/platform-kit';
import { FAST_BREAKER, openGate, sleep, type TestGate } from './gate-fixtures';

/**
 * The breaker off the per-call path (cacheMs > 0): each gate keeps the states it read and
 * folds its ordinary outcomes, reporting one add-outcomes-2 call per channel per interval,
 * at once when its own failures may decide the verdict. Script calls are counted from Redis's
 * INFO commandstats. The rules themselves are breaker-gate.test.ts's (cacheMs 0).
 */
let redis: PrivateRedis;
const gates: TestGate[] = [];
const gate = async (cacheMs: number, openMs = FAST_BREAKER.openMs) => {
  const g = await openGate(redis.url, { cacheMs, openMs });
  gates.push(g);
  return g;
};

beforeAll(async () => {
  redis = await startPrivateRedis({ persistence: 'none' });
});
afterEach(async () => {
  for (const g of gates.splice(0)) await g.close();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  const admin = await openGate(redis.url);
  await admin.redis.flushall();
  await admin.redis.config('RESETSTAT');
  await admin.close();
});

/** EVAL/EVALSHA calls Redis has run since the last RESETSTAT. */
async function scriptCalls(g: TestGate): Promise<number> {
  const text = await g.redis.info('commandstats');
  return [...text.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

async function calls(g: TestGate, channel: 'push' | 'sms', outcome: 'delivered' | 'transient' | 'permanent', n: number): Promise<number> {
  for (let i = 0; i < n; i += 1) {
    const ticket = await g.gate.acquire(channel);
    if (!ticket) return i;
    await ticket.release(outcome);
  }
  return n;
}

const window = async (g: TestGate, channel: 'push' | 'sms') => (await readBreakerSnapshots(g.redis)).find((s) => s.channel === channel);

it('ordinary calls cost no script call; their outcomes arrive as one report per channel per interval', async () => {
  const g = await gate(300);
  await g.gate.states();
  const before = await scriptCalls(g);
  expect(await calls(g, 'push', 'delivered', 50)).toBe(50);
  expect(await calls(g, 'sms', 'delivered', 30)).toBe(30);
  expect(await calls(g, 'sms', 'permanent', 20)).toBe(20);
  expect(await scriptCalls(g)).toBe(before);
  await waitFor('one report per channel', async () => (await scriptCalls(g)) >= before + 2, 3_000, 20);
  expect(await scriptCalls(g)).toBe(before + 2);
  expect(await window(g, 'push')).toMatchObject({ state: 'closed', windowCalls: 50, windowFailures: 0 });
  // Permanent answers are neutral: never reported, not in the denominator.
  expect(await window(g, 'sms')).toMatchObject({ state: 'closed', windowCalls: 30, windowFailures: 0 });
});

it('a channel failing hard opens as soon as this process alone holds the deciding failures, not at the end of the interval', async () => {
  const g = await gate(60_000);
  await g.gate.states();
  expect(await calls(g, 'push', 'transient', FAST_BREAKER.minCalls)).toBe(FAST_BREAKER.minCalls);
  expect(await window(g, 'push')).toMatchObject({ state: 'open' });
  // Its own transition updated its local copy: refused locally, without asking Redis.
  const before = await scriptCalls(g);
  expect(await g.gate.acquire('push')).toBeUndefined();
  expect(await scriptCalls(g)).toBe(before);
});

it('healthy traffic with the normal error rate reports at the interval only, and stays closed', async () => {
  const g = await gate(60_000);
  await g.gate.states();
  await calls(g, 'push', 'delivered', 40);
  const afterFirst = await scriptCalls(g);
  // The first failure is reported at once (nothing is known yet); the answer says how many
  // more failures could trip it, so the next ones (5 % of calls) are folded.
  for (let i = 0; i < 200; i += 1) await calls(g, 'push', i % 20 === 0 ? 'transient' : 'delivered', 1);
  expect(await scriptCalls(g)).toBe(afterFirst + 1);
  expect((await g.gate.states()).push).toBe('closed');
});

it('another process sees the transition within its refresh interval, then refuses locally', async () => {
  // Open for 10 s, so the other gate sees it open, not already half-open.
  const opener = await gate(0, 10_000);
  const other = await gate(200);
  expect((await other.gate.states()).push).toBe('closed');
  expect(await calls(opener, 'push', 'transient', FAST_BREAKER.minCalls)).toBe(FAST_BREAKER.minCalls);
  await waitFor('the other gate to refuse push', async () => (await other.gate.acquire('push')) === undefined, 5_000, 10);
  expect(await other.gate.openChannels()).toContain('push');
  const before = await scriptCalls(other);
  expect(await other.gate.acquire('push')).toBeUndefined();
  expect(await scriptCalls(other)).toBe(before);
  // An ordinary call that was allowed on the stale copy and answers late changes nothing.
  expect(await window(opener, 'push')).toMatchObject({ state: 'open' });
});

it('half-open is decided in Redis: probe leases are shared and bounded, whatever the local copies say', async () => {
  const opener = await gate(0);
  const a = await gate(100);
  const b = await gate(100);
  await calls(opener, 'push', 'transient', FAST_BREAKER.minCalls);
  await sleep(FAST_BREAKER.openMs + 50);
  const p1 = await a.gate.acquire('push');
  const p2 = await b.gate.acquire('push');
  expect(p1).toBeDefined();
  expect(p2).toBeDefined();
  expect(await a.gate.acquire('push')).toBeUndefined();
  expect(await b.gate.acquire('push')).toBeUndefined();
  await p1!.release('delivered');
  await p2!.release('delivered');
  expect(await window(opener, 'push')).toMatchObject({ state: 'closed' });
  // The gate whose probe closed it knows at once; the other within its refresh interval.
  expect((await b.gate.states()).push).toBe('closed');
  await waitFor('a to read closed', async () => (await a.gate.states()).push === 'closed', 1_000, 20);
});

it('close() reports what is still folded', async () => {
  const g = await gate(60_000);
  await g.gate.states();
  await calls(g, 'sms', 'delivered', 7);
  await g.close();
  gates.splice(gates.indexOf(g), 1);
  const reader = await gate(0);
  expect(await window(reader, 'sms')).toMatchObject({ windowCalls: 7 });
});
