import { readBreakerSnapshots } from '@notify/pipeline';
import { startPrivateRedis as startTestRedis, type PrivateRedis as TestRedis } from '@notify/platform-kit';
import { waitFor } from '@notify/platform-kit';
import { FAST_BREAKER, metricValue, openGate, sleep, type TestGate } from './gate-fixtures';

/**
 * The breaker's rules against a real Redis (Lua on Redis's clock), with time scaled down:
 * min 10 calls, ratio 0.5, 2 probes, 2 successes close. The window (60 s), the open period
 * (1 s) and the lease (3 s) are long enough that a busy machine cannot slide or expire them in
 * the middle of a step; only the sliding test uses the 1 s window, and state changes are
 * waited for, not slept on.
 */
const GATE = { windowMs: 60_000, openMs: 1_000, probeLeaseMs: 3_000 };
let redis: TestRedis;
let a: TestGate;
let b: TestGate;

beforeAll(async () => {
  redis = await startTestRedis();
  a = await openGate(redis.url, GATE);
  b = await openGate(redis.url, GATE);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
});
beforeEach(async () => {
  await a.redis.flushall();
});

async function calls(gate: TestGate, channel: 'push' | 'sms' | 'email', outcome: 'delivered' | 'transient' | 'permanent' | 'unknown', n: number) {
  for (let i = 0; i < n; i += 1) {
    const ticket = await gate.gate.acquire(channel);
    if (!ticket) return i;
    await ticket.release(outcome);
  }
  return n;
}

const state = async (gate: TestGate, channel: 'push' | 'sms' | 'email') => (await gate.gate.states())[channel];

/** Waits for the open period to end: read-only views say half-open from then on. */
async function untilHalfOpen(gate: TestGate) {
  await waitFor('push half-open', async () => (await readBreakerSnapshots(gate.redis))[0]?.state === 'half-open', GATE.openMs + 10_000);
}

async function tripPush(gate: TestGate) {
  await calls(gate, 'push', 'transient', FAST_BREAKER.minCalls);
  expect(await state(gate, 'push')).toBe('open');
}

it('needs the minimum number of calls before any verdict', async () => {
  expect(await calls(a, 'push', 'transient', FAST_BREAKER.minCalls - 1)).toBe(FAST_BREAKER.minCalls - 1);
  expect(await state(a, 'push')).toBe('closed');
  await calls(a, 'push', 'transient', 1);
  expect(await state(a, 'push')).toBe('open');
  expect(await a.gate.acquire('push')).toBeUndefined();
});

it('opens on a failure ratio, not a count: push at BI5 (5 %) and a short burst stay closed', async () => {
  // 400 calls, 1 in 20 transient (5 %): 20 failures, twice the minimum count, far below the ratio.
  for (let i = 0; i < 400; i += 1) expect(await calls(a, 'push', i % 20 === 0 ? 'transient' : 'delivered', 1)).toBe(1);
  expect(await state(a, 'push')).toBe('closed');
  const [push] = await readBreakerSnapshots(a.redis);
  expect(push).toMatchObject({ state: 'closed', windowFailures: 20 });
  // A burst of failures as large as the minimum count, among many successes, does not trip it
  // (an absolute-count breaker with threshold 10 would open here).
  expect(await calls(a, 'push', 'transient', FAST_BREAKER.minCalls)).toBe(FAST_BREAKER.minCalls);
  expect(await state(a, 'push')).toBe('closed');
  // 40 % failing (never 50 % at any point) does not open; crossing the ratio does.
  await a.redis.flushall();
  for (let i = 0; i < 40; i += 1) await calls(a, 'sms', i % 5 >= 3 ? 'transient' : 'delivered', 1);
  expect(await state(a, 'sms')).toBe('closed');
  await calls(a, 'sms', 'transient', 20);
  expect(await state(a, 'sms')).toBe('open');
});

it('counts unknown outcomes as failures', async () => {
  await calls(a, 'email', 'unknown', FAST_BREAKER.minCalls);
  expect(await state(a, 'email')).toBe('open');
});

it('never opens on permanent errors, even at 100 %', async () => {
  expect(await calls(a, 'sms', 'permanent', 200)).toBe(200);
  expect(await state(a, 'sms')).toBe('closed');
  const snapshots = await readBreakerSnapshots(a.redis);
  // Neutral: not even in the window's denominator.
  expect(snapshots.find((s) => s.channel === 'sms')).toMatchObject({ state: 'closed', windowCalls: 0, windowFailures: 0 });
});

it('forgets failures older than the window (sliding)', async () => {
  const fast = await openGate(redis.url); // the 1 s window
  try {
    await calls(fast, 'push', 'transient', FAST_BREAKER.minCalls - 1);
    await sleep(FAST_BREAKER.windowMs + 150);
    await calls(fast, 'push', 'transient', 1);
    expect(await state(fast, 'push')).toBe('closed');
  } finally {
    await fast.close();
  }
});

it('is one breaker for every process: what one gate trips, another refuses', async () => {
  await tripPush(a);
  expect(await b.gate.acquire('push')).toBeUndefined();
  expect([...(await b.gate.openChannels())]).toEqual(['push']);
  expect(await b.gate.acquire('sms')).toBeDefined();
  // The transition is counted once, by the gate whose call caused it; both gauges say open.
  expect(await metricValue(a.registry, 'notify_breaker_transitions_total', { channel: 'push', from: 'closed', to: 'open' })).toBeGreaterThanOrEqual(1);
  const before = await metricValue(b.registry, 'notify_breaker_transitions_total', { channel: 'push', from: 'closed', to: 'open' });
  await tripPush(a).catch(() => undefined);
  expect(await metricValue(b.registry, 'notify_breaker_transitions_total', { channel: 'push', from: 'closed', to: 'open' })).toBe(before);
  await b.registry.metrics(); // the gauge is read from Redis at scrape time
  expect(await metricValue(b.registry, 'notify_breaker_state', { channel: 'push' })).toBe(2);
});

it('ignores late answers of calls that started before it opened', async () => {
  const early = await a.gate.acquire('push');
  await tripPush(a);
  await early!.release('delivered');
  expect(await state(a, 'push')).toBe('open');
});

it('half-open: a bounded number of probes, closes after the configured successes', async () => {
  await tripPush(a);
  await untilHalfOpen(a);
  // Read-only views already say half-open (since the open period ended); the next acquire records it.
  const [view] = await readBreakerSnapshots(a.redis);
  expect(view).toMatchObject({ state: 'half-open', probesInFlight: 0 });
  expect(view!.at - view!.since!).toBeLessThan(GATE.openMs);
  const p1 = await a.gate.acquire('push');
  const p2 = await b.gate.acquire('push');
  expect(p1).toBeDefined();
  expect(p2).toBeDefined();
  expect(await a.gate.acquire('push')).toBeUndefined(); // every probe slot is taken
  expect(await state(b, 'push')).toBe('half-open');
  expect(await b.gate.openChannels()).not.toContain('push'); // half-open takes traffic (to probe)
  await p1!.release('not-called'); // frees the slot, proves nothing
  const p3 = await a.gate.acquire('push');
  expect(p3).toBeDefined();
  await p2!.release('delivered');
  expect(await state(a, 'push')).toBe('half-open');
  await p3!.release('delivered');
  expect(await state(a, 'push')).toBe('closed');
  expect(await metricValue(a.registry, 'notify_breaker_transitions_total', { channel: 'push', from: 'half-open', to: 'closed' })).toBeGreaterThanOrEqual(1);
});

it('half-open: a probe failure re-opens it for another open period', async () => {
  await tripPush(a);
  await untilHalfOpen(a);
  const probe = await a.gate.acquire('push');
  await probe!.release('transient');
  expect(await state(a, 'push')).toBe('open');
  expect(await a.gate.acquire('push')).toBeUndefined();
  // A permanent answer from a probe is neutral: frees the slot, no verdict.
  await untilHalfOpen(a);
  const neutral = await a.gate.acquire('push');
  await neutral!.release('permanent');
  expect(await state(a, 'push')).toBe('half-open');
});

it('half-open: probes that never report do not wedge it (their leases expire)', async () => {
  await tripPush(a);
  await untilHalfOpen(a);
  const hung = [await a.gate.acquire('push'), await b.gate.acquire('push')];
  expect(hung.every(Boolean)).toBe(true);
  expect(await a.gate.acquire('push')).toBeUndefined();
  const [before] = await readBreakerSnapshots(a.redis);
  expect(before).toMatchObject({ state: 'half-open', probesInFlight: 2 });
  // Neither probe ever reports (their worker died). After the lease TTL the slots are free.
  const fresh = await waitFor('a probe slot after the lease TTL', () => a.gate.acquire('push'), GATE.probeLeaseMs + 10_000, 50);
  const other = await b.gate.acquire('push');
  await fresh.release('delivered');
  await other!.release('delivered');
  expect(await state(a, 'push')).toBe('closed');
  // The hung probes answering much later change nothing.
  await hung[0]!.release('transient');
  expect(await state(a, 'push')).toBe('closed');
});

it('disabled: every channel is always callable and Redis is never touched', async () => {
  const off = await openGate(redis.url, { enabled: false });
  try {
    await tripPush(a);
    expect(await off.gate.acquire('push')).toBeDefined();
    expect((await off.gate.openChannels()).size).toBe(0);
  } finally {
    await off.close();
  }
});
