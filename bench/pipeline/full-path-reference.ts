import { join } from 'node:path';
import { DEFAULT_ENTRIES, startPrivateRedis, startSimulatorsOnFreePorts, type ProcessGroup } from '@notify/platform-kit';
import type { BenchTarget } from './bench-target';
import { withRedis, type BenchContext } from './context';
import { holdRates } from './hold-rates';
import type { RateResult } from './rate-result';
import { startReference } from './services';
import type { Redis } from 'ioredis';

export interface FullPathReference {
  target: (redis: Redis) => BenchTarget;
  redisUrl: string;
}

/**
 * bench/references/bare-full-path.ts in the platform's layout: a redis-server (with AOF,
 * `appendfsync everysec`, unless told otherwise), the same simulators, one api and `workers`
 * worker processes.
 */
export async function startFullPathReference(o: {
  group: ProcessGroup;
  inherited: Record<string, string>;
  dataDir: string;
  workers: number;
  simEnv: Record<string, string>;
  persistence?: 'aof' | 'none';
  signal: AbortSignal;
}): Promise<FullPathReference> {
  const persistence = o.persistence ?? 'aof';
  const redis = await startPrivateRedis({ group: o.group, env: o.inherited, dataDir: join(o.dataDir, 'redis'), persistence, signal: o.signal });
  const { ports } = await startSimulatorsOnFreePorts(o.group, {
    entry: DEFAULT_ENTRIES.simulators,
    env: { ...o.inherited, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...o.simEnv },
    signal: o.signal,
  });
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

/**
 * The bare full path held at the platform's rates, batch intake, in its own phase (nothing of
 * the platform runs meanwhile), its Redis persisted as the profile's.
 */
export async function runFullPath(ctx: BenchContext, persistence: 'aof' | 'none'): Promise<RateResult[]> {
  const { rates, seconds, settle, workers, latency, drainSeconds } = ctx.options;
  ctx.log(`reference: bare full path (api + ${workers} workers + simulators + Redis${persistence === 'aof' ? ' with AOF' : ''}), batch intake`);
  const group = ctx.phase();
  const ref = await startFullPathReference({
    group,
    inherited: ctx.inherited,
    dataDir: join(ctx.dir, 'full-path'),
    workers,
    simEnv: { SIM_LATENCY_MS: latency },
    persistence,
    signal: ctx.signal,
  });
  try {
    return await withRedis(ref.redisUrl, (redis) =>
      holdRates(ref.target(redis), {
        rates,
        seconds,
        settle,
        log: ctx.log,
        common: { mode: 'batch', urgentShare: 0.5, drainSeconds, urgentSample: 0, delivering: true, history: false },
      }),
    );
  } finally {
    await group.stopAll();
  }
}
