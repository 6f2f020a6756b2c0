import { Redis } from 'ioredis';
import { processIndexKey, processKey } from '@notify/core';
import { startPrivateRedis as startTestRedis, type PrivateRedis as TestRedis } from '@notify/platform-kit';
import { waitFor } from '@notify/platform-kit';
import { listProcesses, registerProcess, removeProcess } from './process-registry';

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startTestRedis();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});
beforeEach(async () => {
  await redis.flushall();
});

it('registers, lists and removes a process', async () => {
  const reg = await registerProcess(redis, { app: 'worker', roles: ['push', 'sms'], metricsUrl: 'http://127.0.0.1:1/metrics' }, { heartbeatMs: 100 });
  const [listed, ...others] = await listProcesses(redis);
  expect(others).toEqual([]);
  expect(listed).toMatchObject({ app: 'worker', pid: process.pid, roles: ['push', 'sms'], id: reg.id });
  expect(typeof listed?.host).toBe('string');
  await reg.stop();
  await reg.stop(); // idempotent
  expect(await listProcesses(redis)).toEqual([]);
});

it('keeps a live registration past its TTL through heartbeats', async () => {
  // Observed for 2.5 TTLs; the TTL leaves 900 ms for a late heartbeat (was 100 ms: a busy machine delays timers more).
  const reg = await registerProcess(redis, { app: 'worker', roles: ['email'] }, { heartbeatMs: 100, ttlMs: 1_000 });
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect((await listProcesses(redis)).map((p) => p.id)).toEqual([reg.id]);
  await reg.stop();
});

it('a process that stops beating (SIGKILL) disappears within the TTL and is pruned from the index', async () => {
  const dead = await registerProcess(redis, { app: 'worker', roles: ['push'], pid: 999_998, startedAt: 2 }, { heartbeatMs: 60_000, ttlMs: 120_000 });
  // A killed process: its key expires, nobody calls stop(). Expire it by hand to skip the wait.
  await redis.pexpire(processKey(dead.id), 50);
  await waitFor('the registration to expire', async () => (await listProcesses(redis)).length === 0, 2_000, 25);
  expect(await redis.smembers(processIndexKey())).toEqual([]);
  await dead.stop();
});

it('lists oldest first and forgets one on demand', async () => {
  const b = await registerProcess(redis, { app: 'worker', roles: ['sms'], startedAt: 2_000, pid: 2 }, { heartbeatMs: 1_000 });
  const a = await registerProcess(redis, { app: 'worker', roles: ['sms'], startedAt: 1_000, pid: 1 }, { heartbeatMs: 1_000 });
  expect((await listProcesses(redis)).map((p) => p.pid)).toEqual([1, 2]);
  await removeProcess(redis, a.id);
  expect((await listProcesses(redis)).map((p) => p.pid)).toEqual([2]);
  await a.stop();
  await b.stop();
});

it('refuses a TTL that would let the registration blink out between beats', async () => {
  await expect(registerProcess(redis, { app: 'worker', roles: [] }, { heartbeatMs: 100, ttlMs: 100 })).rejects.toThrow(RangeError);
});
