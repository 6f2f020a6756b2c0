import { join } from 'node:path';
import { startProcessPlatform, type ProcessPlatform } from '@notify/platform-kit';
import type { BenchContext } from './context';
import type { Profile } from './profiles';

export const BENCH_TENANT = 'bench';
export const BENCH_API_KEY = 'bench-key-000000000000000000001';

/** The api's and the workers' env of every run: scaled cascade delays, `--app-env`, `--cpu-prof`. */
export function platformEnv(ctx: BenchContext): Record<string, string> {
  const { delay, extraEnv, profileEnv } = ctx.options;
  return { CASCADE_TRANSIENT_DELAY_MS: delay, CASCADE_RECONCILE_DELAY_MS: delay, CASCADE_UNAVAILABLE_RETRY_MS: delay, ...extraEnv, ...profileEnv };
}

/** The process platform with `workers` workers and `apis` api processes, Redis as the profile says. */
export function startBenchPlatform(
  ctx: BenchContext,
  o: { workers: number; apis?: number; redisPersistence: Profile['redisPersistence']; appEnv: Record<string, string> },
): Promise<ProcessPlatform> {
  return startProcessPlatform({
    group: ctx.phase(),
    inherited: ctx.inherited,
    workers: o.workers,
    apiInstances: o.apis ?? 1,
    apiKeys: `${BENCH_API_KEY}:${BENCH_TENANT}`,
    // The profile's settings first: `--app-env` still overrides them.
    appEnv: { ...o.appEnv, ...platformEnv(ctx) },
    simEnv: { SIM_LATENCY_MS: ctx.options.latency, ...ctx.options.profileEnv },
    dataDir: join(ctx.dir, `platform-${o.workers}`),
    redisPersistence: o.redisPersistence,
    signal: ctx.signal,
  });
}
