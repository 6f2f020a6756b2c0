import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../test/harness/free-port';
import { startTestRedis, type TestRedis } from '../test/harness/redis-server';
import { waitFor } from '../test/harness/wait-for';

const ROOT = join(__dirname, '..');
export const BENCH_API_KEY = 'bench-key-0000000000000001';

export interface ProcessPlatform {
  apiUrl: string;
  simControlUrl: string;
  workerMetricsUrls: string[];
  redisUrl: string;
  stop(): Promise<void>;
}

function run(app: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps', app, 'src', 'main.ts')], {
    cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * The whole platform as separate processes on loopback, on a private redis-server: what a
 * benchmark must measure (not one process sharing its event loop with the load generator).
 */
export async function startProcessPlatform(options: { workers: number; env?: Record<string, string>; simEnv?: Record<string, string> }): Promise<ProcessPlatform> {
  const redis: TestRedis = await startTestRedis({ args: ['--appendfsync', 'everysec'] });
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => c.once('exit', r)))));
    await redis.stop();
  };
  try {
    const [control, push, sms, email, api, stores] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
    children.push(run('simulators', {
      SIM_CONTROL_PORT: String(control), SIM_PUSH_PORT: String(push), SIM_SMS_PORT: String(sms), SIM_EMAIL_PORT: String(email), TRACKING_STORES_PORT: String(stores), ...options.simEnv,
    }));
    const env = {
      REDIS_URL: redis.url, API_KEYS: `${BENCH_API_KEY}:bench`,
      PROVIDER_PUSH_URL: `http://127.0.0.1:${push}`, PROVIDER_SMS_URL: `http://127.0.0.1:${sms}`, PROVIDER_EMAIL_URL: `http://127.0.0.1:${email}`,
      TRACKING_STORES_BASE_URL: `http://127.0.0.1:${stores}`,
      ...options.env,
    };
    children.push(run('api', { ...env, API_PORT: String(api) }));
    const workerMetricsUrls: string[] = [];
    for (let i = 0; i < options.workers; i += 1) {
      const port = await freePort();
      children.push(run('worker', { ...env, METRICS_PORT: String(port) }));
      workerMetricsUrls.push(`http://127.0.0.1:${port}/metrics`);
    }
    const apiUrl = `http://127.0.0.1:${api}`;
    const simControlUrl = `http://127.0.0.1:${control}`;
    await waitFor('platform processes ready', async () => {
      const checks = await Promise.all([`${apiUrl}/readyz`, `${simControlUrl}/healthz`, ...workerMetricsUrls.map((u) => u.replace('/metrics', '/readyz'))]
        .map(async (url) => (await fetch(url)).ok));
      return checks.every(Boolean);
    }, 30_000, 100);
    return { apiUrl, simControlUrl, workerMetricsUrls, redisUrl: redis.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
