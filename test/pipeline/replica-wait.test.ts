import { startPrivateRedis, type PrivateRedis } from '@notify/platform-kit';
import { ReplicaWaiter } from '@notify/pipeline';
import { createRedis, waitUntilReady } from '@notify/runtime';
import type { Redis } from 'ioredis';

/** The intake's WAIT on a Redis without replicas: every wait comes back `short`, and concurrent waits share WAIT commands. */
let server: PrivateRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startPrivateRedis();
  redis = createRedis(server.url, 'producer');
  await waitUntilReady(redis);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

async function waitCalls(): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

it('does nothing with 0 replicas', async () => {
  const waiter = new ReplicaWaiter(redis, { replicas: 0, timeoutMs: 50 });
  expect(waiter.enabled).toBe(false);
  expect(await waiter.afterWrite(0)).toBe('replicated');
  expect(await waiter.afterWrite(3)).toBe('replicated');
  expect(await waitCalls()).toBe(0);
});

it('answers short when no replica acknowledges in time, grouping concurrent writers into few WAITs', async () => {
  await redis.config('RESETSTAT');
  const waiter = new ReplicaWaiter(redis, { replicas: 1, timeoutMs: 50 });
  const results = await Promise.all(Array.from({ length: 40 }, (_, i) => waiter.afterWrite(i % 4)));
  expect(results.every((r) => r === 'short')).toBe(true);
  // One Redis: one group for every partition; the first WAIT plus at most one for everyone who came while it ran.
  expect(await waitCalls()).toBeLessThanOrEqual(2);
});
