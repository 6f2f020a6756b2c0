import { join } from 'node:path';
import {
  DEFAULT_ENTRIES,
  SIMULATOR_PORT_COUNT,
  startAppOnFreePorts,
  startPrivateRedis,
  simulatorPortsEnv,
  simulatorPortsOf,
  type ProcessGroup,
} from '@notify/platform-kit';
import type { BenchTarget } from './bench-target';
import { startReference } from './services';
import type { Redis } from 'ioredis';

export interface FullPathReference {
  target: (redis: Redis) => BenchTarget;
  redisUrl: string;
}

/**
 * bench/references/bare-full-path.ts in the platform's layout: a redis-server with AOF
 * (`appendfsync everysec`), the same simulators, one api and `workers` worker processes.
 */
export async function startFullPathReference(o: {
  group: ProcessGroup;
  inherited: Record<string, string>;
  dataDir: string;
  workers: number;
  simEnv: Record<string, string>;
  signal: AbortSignal;
}): Promise<FullPathReference> {
  const redis = await startPrivateRedis({ group: o.group, env: o.inherited, dataDir: join(o.dataDir, 'redis'), persistence: 'aof', signal: o.signal });
  const sims = await startAppOnFreePorts(o.group, {
    name: 'simulators',
    entry: DEFAULT_ENTRIES.simulators,
    ports: SIMULATOR_PORT_COUNT,
    env: (p) => ({ ...o.inherited, NODE_ENV: 'development', ...simulatorPortsEnv(simulatorPortsOf(p)), LOG_LEVEL: 'warn', ...o.simEnv }),
    readyUrl: (p) => `http://127.0.0.1:${p[0]}/healthz`,
    signal: o.signal,
  });
  const ports = simulatorPortsOf(sims.ports);
  const env = {
    REDIS_URL: redis.url,
    CONCURRENCY: '100',
    PROVIDER_PUSH_URL: `http://127.0.0.1:${ports.push}`,
    PROVIDER_SMS_URL: `http://127.0.0.1:${ports.sms}`,
    PROVIDER_EMAIL_URL: `http://127.0.0.1:${ports.email}`,
  };
  const api = await startReference(o.group, 'bare-full-path-api', 'bare-full-path.ts', { ...env, ROLE: 'api' }, o.signal);
  const workers: { url: string }[] = [];
  for (let i = 0; i < o.workers; i += 1) {
    workers.push(await startReference(o.group, `bare-full-path-worker-${i + 1}`, 'bare-full-path.ts', { ...env, ROLE: 'worker' }, o.signal));
  }
  return {
    redisUrl: redis.url,
    target: (r) => ({
      apiUrl: api.url,
      apiKey: 'none',
      tenant: 'bare',
      redis: r,
      metricsUrls: [`${api.url}/metrics`, ...workers.map((w) => `${w.url}/metrics`)],
    }),
  };
}
