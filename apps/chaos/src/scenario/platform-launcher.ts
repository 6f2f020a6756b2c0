import { isAbsolute, join, relative } from 'node:path';
import { Redis } from 'ioredis';
import type { ScenarioEnv } from '../config';
import { freePort } from '@notify/devkit';
import type { Child, ProcessGroup } from './process-group';
import { httpOk, waitReady } from './wait-ready';

export const SCENARIO_API_KEY = 'scenario-key-0000000000000001';
export const SCENARIO_TENANT = 'scenario';

export interface PlatformEntries {
  simulators: string;
  api: string;
  worker: string;
}

export const DEFAULT_ENTRIES: PlatformEntries = {
  simulators: 'apps/simulators/src/main.ts',
  api: 'apps/api/src/main.ts',
  worker: 'apps/worker/src/main.ts',
};

export interface PlatformOptions {
  root: string;
  group: ProcessGroup;
  env: ScenarioEnv;
  dataDir: string;
  workers: number;
  /** Env for the api and the workers: scaled cascade delays, BREAKER_* ... */
  appEnv: Record<string, string>;
  /** Extra env for the simulators (provider latency, error rates). */
  simEnv?: Record<string, string>;
  entries: PlatformEntries;
  signal: AbortSignal;
  startTimeoutMs?: number;
}

export interface ScenarioPlatform {
  redisUrl: string;
  controlUrl: string;
  apiUrl: string;
  workerUrls: string[];
  /** Workers first (they drain), then the api, the simulators, Redis. */
  stop(): Promise<void>;
}

/** Keeps an entry inside the repository: the scenario runs only the platform's own code. */
export function resolveEntry(root: string, entry: string): string {
  const path = isAbsolute(entry) ? entry : join(root, entry);
  const inside = relative(root, path);
  if (inside.startsWith('..') || isAbsolute(inside) || !/\.ts$/.test(path)) throw new Error(`entry ${entry} must be a .ts file inside ${root}`);
  return path;
}

/**
 * The platform as real processes on 127.0.0.1, every port free and private: a redis-server
 * (no persistence: the scenario's data is thrown away), the simulators, the api and
 * `workers` worker processes (all roles each), each node process run with tsx.
 */
export async function startPlatform(o: PlatformOptions): Promise<ScenarioPlatform> {
  const timeoutMs = o.startTimeoutMs ?? 30_000;
  const node = (name: string, entry: string, env: Record<string, string>): Child =>
    o.group.start(name, process.execPath, ['--import', 'tsx', resolveEntry(o.root, entry)], { ...o.env.inherited, NODE_ENV: 'development', ...env }, o.root);

  const redisPort = await freePort();
  const redisChild = o.group.start('redis', o.env.redisServer, [
    '--port', String(redisPort), '--bind', '127.0.0.1', '--dir', o.dataDir, '--save', '', '--appendonly', 'no',
    '--maxmemory-policy', 'noeviction', '--logfile', join(o.dataDir, 'redis-server.log'),
  ], o.env.inherited, o.root);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  await waitReady('redis-server', () => ping(redisPort), { timeoutMs, group: o.group, child: redisChild, signal: o.signal });

  const [control, push, sms, email, stores, api] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  const sims = node('simulators', o.entries.simulators, {
    SIM_HOST: '127.0.0.1', SIM_CONTROL_PORT: String(control), SIM_PUSH_PORT: String(push), SIM_SMS_PORT: String(sms),
    SIM_EMAIL_PORT: String(email), TRACKING_STORES_PORT: String(stores), LOG_LEVEL: 'warn', ...o.simEnv,
  });
  const controlUrl = `http://127.0.0.1:${control}`;
  const common = {
    ...o.appEnv, REDIS_URL: redisUrl, LOG_LEVEL: 'warn', SHUTDOWN_GRACE_MS: '5000',
    PROVIDER_PUSH_URL: `http://127.0.0.1:${push}`, PROVIDER_SMS_URL: `http://127.0.0.1:${sms}`, PROVIDER_EMAIL_URL: `http://127.0.0.1:${email}`,
  };
  const apiChild = node('api', o.entries.api, { ...common, API_HOST: '127.0.0.1', API_PORT: String(api), API_KEYS: `${SCENARIO_API_KEY}:${SCENARIO_TENANT}` });
  const apiUrl = `http://127.0.0.1:${api}`;
  const workerChildren: Child[] = [];
  const workerUrls: string[] = [];
  for (let i = 0; i < o.workers; i += 1) {
    const port = await freePort();
    workerChildren.push(node(`worker-${i + 1}`, o.entries.worker, { ...common, WORKER_ROLES: 'all', METRICS_HOST: '127.0.0.1', METRICS_PORT: String(port) }));
    workerUrls.push(`http://127.0.0.1:${port}`);
  }
  await Promise.all([
    waitReady('simulators', () => httpOk(`${controlUrl}/healthz`), { timeoutMs, group: o.group, child: sims, signal: o.signal }),
    waitReady('api', () => httpOk(`${apiUrl}/readyz`), { timeoutMs, group: o.group, child: apiChild, signal: o.signal }),
    ...workerChildren.map((w, i) => waitReady(w.name, () => httpOk(`${workerUrls[i]}/readyz`), { timeoutMs, group: o.group, child: w, signal: o.signal })),
  ]);
  return {
    redisUrl, controlUrl, apiUrl, workerUrls,
    stop: async () => {
      await o.group.stop(workerChildren);
      await o.group.stop([apiChild]);
      await o.group.stop([sims]);
      await o.group.stopAll();
    },
  };
}

async function ping(port: number): Promise<boolean> {
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } finally {
    probe.disconnect();
  }
}
