import { Redis } from 'ioredis';
import { startPrivateRedis as startTestRedis, type PrivateRedis as TestRedis } from '@notify/platform-kit';
import { waitFor } from '@notify/platform-kit';
import { FAST_BREAKER, metricValue, openGate, type TestGate } from './gate-fixtures';

/**
 * Documented choice: when Redis cannot answer for the breaker, the gate fails OPEN (the call
 * is allowed, every channel reads as closed), counts notify_breaker_redis_errors_total and
 * logs it. Two ways Redis goes away: paused (commands hang: the timeout ends them) and killed
 * (connection refused: the fail-fast connection ends them at once).
 */
const REDIS_TIMEOUT_MS = 1_000;
const PAUSE_MS = 6_000;
let redis: TestRedis;
let gate: TestGate;

beforeAll(async () => {
  redis = await startTestRedis();
  // A long window and open period so a busy machine cannot slide or end them mid-test; a Redis
  // timeout far from both the pause and a refused connection, so each bound below tells them apart.
  gate = await openGate(redis.url, { redisTimeoutMs: REDIS_TIMEOUT_MS, cacheMs: 0, windowMs: 60_000, openMs: 60_000 });
});
afterAll(async () => {
  await gate?.close();
  await redis?.stop();
});

async function tripPush(): Promise<void> {
  for (let i = 0; i < FAST_BREAKER.minCalls; i += 1) await (await gate.gate.acquire('push'))?.release('transient');
  expect((await gate.gate.states()).push).toBe('open');
}

it('Redis paused: calls are allowed within the timeout, counted and logged, then the breaker decides again', async () => {
  await tripPush();
  expect(await gate.gate.acquire('push')).toBeUndefined();
  const pauser = new Redis(redis.url);
  await pauser.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL');
  pauser.disconnect();

  const started = performance.now();
  const ticket = await gate.gate.acquire('push');
  const open = await gate.gate.openChannels();
  const elapsed = performance.now() - started;
  expect(ticket).toBeDefined(); // the breaker in Redis is open, but it could not be asked
  expect(open.size).toBe(0);
  expect(elapsed).toBeLessThan(2 * REDIS_TIMEOUT_MS + 1_500); // two timed-out calls, far short of the pause
  await ticket!.release('transient'); // also fails open, silently
  expect(await metricValue(gate.registry, 'notify_breaker_redis_errors_total', { operation: 'acquire' })).toBeGreaterThanOrEqual(1);
  expect(await metricValue(gate.registry, 'notify_breaker_redis_errors_total', { operation: 'read' })).toBeGreaterThanOrEqual(1);
  expect(gate.logs.some((l) => l.level === 40 && /failing OPEN/.test(l.msg))).toBe(true);

  // After the pause the shared state is still there and is obeyed again.
  await waitFor('the breaker to refuse again', async () => (await gate.gate.acquire('push')) === undefined, PAUSE_MS + 10_000, 100);
  expect(gate.logs.some((l) => /reachable in Redis again/.test(l.msg))).toBe(true);
});

it('Redis killed: fails open at once (no timeout to wait), and recovers after a restart', async () => {
  await gate.redis.flushall();
  await tripPush();
  const errorsBefore = await metricValue(gate.registry, 'notify_breaker_redis_errors_total');
  await redis.kill();
  await waitFor('the gate connection to notice', () => gate.redis.status !== 'ready', 5_000);
  const started = performance.now();
  const ticket = await gate.gate.acquire('sms');
  expect(ticket).toBeDefined();
  expect(performance.now() - started).toBeLessThan(REDIS_TIMEOUT_MS / 2); // refused at once, no timeout waited
  expect((await gate.gate.openChannels()).size).toBe(0);
  expect(await metricValue(gate.registry, 'notify_breaker_redis_errors_total')).toBeGreaterThan(errorsBefore);

  await redis.restart(); // AOF replays the open breaker
  await waitFor('the breaker to refuse again', async () => (await gate.gate.acquire('push')) === undefined, 10_000, 100);
});
