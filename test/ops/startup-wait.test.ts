import { freePort, startPrivateRedis, waitFor, type PrivateRedis } from '@notify/platform-kit';
import { spawnApp, type AppProcess } from '../harness/app-process';
import { TEST_API_KEY } from '../harness/platform';

/**
 * The api and the worker started (as real processes) while their Redis is not up: each waits,
 * logging that it does, and becomes ready once Redis is started, under the same pid. Before,
 * a start-up that found no Redis within 10 s exited 1 (`failed to start`), the path a process
 * restarted during a Redis Cluster failover took (`Connection is closed.`).
 */
let redis: PrivateRedis | undefined;
const processes: AppProcess[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  for (const proc of processes) await proc.kill();
  await redis?.stop();
});

const env = (): Record<string, string> => ({
  REDIS_URL: redis!.url,
  API_KEYS: `${TEST_API_KEY}:tenant-a`,
  HISTORY_ENABLED: 'false',
  API_HOST: '127.0.0.1',
  METRICS_HOST: '127.0.0.1',
  API_METRICS_PORT: '0',
  LOG_LEVEL: 'info',
});

it('waits for a Redis that is not up yet, logged, and becomes ready under the same pid once it is', async () => {
  await redis!.kill();
  const apiPort = await freePort();
  const workerMetrics = await freePort();
  const api = spawnApp('api', { ...env(), API_PORT: String(apiPort) });
  const worker = spawnApp('worker', { ...env(), METRICS_PORT: String(workerMetrics) });
  processes.push(api, worker);
  const pids = [api.process.pid, worker.process.pid];
  for (const proc of [api, worker])
    await proc.waitReady(`${proc.name} logging that it waits for Redis`, async () => proc.output().includes('Redis not ready; waiting'), { timeoutMs: 60_000 });
  // Still waiting, not gone, once the former 10 s limit has passed for both (the point is the time itself).
  const waitingSince = performance.now();
  await waitFor('the former 10 s start-up limit passed', async () => performance.now() - waitingSince > 11_000, 30_000, 200);
  expect([api.running, worker.running]).toEqual([true, true]);

  await redis!.restart();
  await api.waitHealthy(`http://127.0.0.1:${apiPort}/readyz`, { timeoutMs: 60_000 });
  await worker.waitHealthy(`http://127.0.0.1:${workerMetrics}/readyz`, { timeoutMs: 60_000 });
  expect([api.process.pid, worker.process.pid]).toEqual(pids);
  expect([api.running, worker.running]).toEqual([true, true]);
  expect(api.output() + worker.output()).not.toContain('failed to start');
});
