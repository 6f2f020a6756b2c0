import { z } from 'zod';
import { CHANNELS, PRIORITIES, type Channel } from '@notify/core';
import { DEFAULT_BULKHEADS, DEFAULT_CASCADE_CONFIG, DEFAULT_WORKER_LOCKS, breakerEnvShape, toBreakerConfig, type BulkheadConfig, type CascadeConfig, type WorkerLockConfig } from '@notify/pipeline';
import { parseEnv, sharedEnvShape } from '@notify/runtime';

const ms = (fallback: number, max = 86_400_000) => z.coerce.number().int().min(0).max(max).default(fallback);
const url = (port: number) => z.string().regex(/^https?:\/\/[^/]+$/, 'must be an origin like http://127.0.0.1:4101').default(`http://127.0.0.1:${port}`);

const roles = z.string().default('all').transform((text, ctx) => {
  const list = text.split(',').map((r) => r.trim()).filter(Boolean);
  if (list.length === 1 && list[0] === 'all') return [...CHANNELS];
  const bad = list.filter((r) => !(CHANNELS as readonly string[]).includes(r));
  if (bad.length > 0 || list.length === 0) {
    ctx.addIssue({ code: 'custom', message: `unknown role(s) ${bad.join(', ') || '(empty)'}; use 'all' or a list of ${CHANNELS.join(', ')}` });
    return z.NEVER;
  }
  return [...new Set(list)] as Channel[];
});

const laneShape: Record<string, z.ZodType> = {};
for (const channel of CHANNELS) {
  for (const priority of PRIORITIES) {
    const lane = DEFAULT_BULKHEADS[channel][priority];
    laneShape[`CONCURRENCY_${channel.toUpperCase()}_${priority.toUpperCase()}`] = z.coerce.number().int().min(1).max(1_000).default(lane.concurrency);
    laneShape[`RATE_${channel.toUpperCase()}_${priority.toUpperCase()}`] = z.coerce.number().int().min(0).max(100_000).default(lane.ratePerSecond);
  }
}

const schema = z.object({
  ...sharedEnvShape,
  ...breakerEnvShape,
  ...laneShape,
  /** Which channel bulkheads run in this process: 'all' (default) or e.g. 'push' or 'sms,email'. */
  WORKER_ROLES: roles,
  PROVIDER_PUSH_URL: url(4101),
  PROVIDER_SMS_URL: url(4102),
  PROVIDER_EMAIL_URL: url(4103),
  PROVIDER_TIMEOUT_MS: ms(2_000, 60_000),
  CASCADE_TRANSIENT_DELAY_MS: ms(DEFAULT_CASCADE_CONFIG.transientDelayMs),
  CASCADE_PERMANENT_DELAY_MS: ms(DEFAULT_CASCADE_CONFIG.permanentDelayMs),
  CASCADE_RECONCILE_DELAY_MS: ms(DEFAULT_CASCADE_CONFIG.reconcileDelayMs),
  CASCADE_UNAVAILABLE_RETRY_MS: ms(DEFAULT_CASCADE_CONFIG.unavailableRetryMs),
  CASCADE_MAX_AGE_MS: ms(DEFAULT_CASCADE_CONFIG.maxAgeMs, 7 * 86_400_000),
  SUPPRESSION_TTL_SECONDS: z.coerce.number().int().min(0).default(DEFAULT_CASCADE_CONFIG.suppressionTtlSeconds),
  SMS_MAX_SEGMENTS: z.coerce.number().int().min(1).max(10).default(DEFAULT_CASCADE_CONFIG.smsMaxSegments),
  WORKER_LOCK_DURATION_MS: ms(DEFAULT_WORKER_LOCKS.lockDurationMs, 600_000),
  WORKER_STALLED_INTERVAL_MS: ms(DEFAULT_WORKER_LOCKS.stalledIntervalMs, 600_000),
  WORKER_MAX_STALLED_COUNT: z.coerce.number().int().min(1).default(DEFAULT_WORKER_LOCKS.maxStalledCount),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Where this worker serves /metrics, /healthz, /readyz; 0 picks a free port. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9464),
  /** How often this process refreshes its registration (the chaos CLI finds workers there); it expires after 3 missed beats. */
  PROCESS_HEARTBEAT_MS: ms(2_000, 60_000),
  /** Intake sweeper: re-adds first steps of notifications accepted but never started (0 = off). */
  INTAKE_SWEEP_INTERVAL_MS: ms(30_000, 3_600_000),
  INTAKE_SWEEP_MIN_AGE_MS: ms(60_000, 86_400_000),
});

export type WorkerConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: Record<string, string | undefined>) {
  const c = parseEnv('worker', schema, env) as z.infer<typeof schema> & Record<string, number>;
  const bulkheads = {} as BulkheadConfig;
  for (const channel of CHANNELS) {
    const lanes = {} as BulkheadConfig[Channel];
    for (const priority of PRIORITIES) {
      const suffix = `${channel.toUpperCase()}_${priority.toUpperCase()}`;
      lanes[priority] = { concurrency: c[`CONCURRENCY_${suffix}`] as number, ratePerSecond: c[`RATE_${suffix}`] as number };
    }
    bulkheads[channel] = lanes;
  }
  const cascade: CascadeConfig = {
    budget: c.CASCADE_BUDGET,
    transientDelayMs: c.CASCADE_TRANSIENT_DELAY_MS,
    permanentDelayMs: c.CASCADE_PERMANENT_DELAY_MS,
    reconcileDelayMs: c.CASCADE_RECONCILE_DELAY_MS,
    unavailableRetryMs: c.CASCADE_UNAVAILABLE_RETRY_MS,
    maxAgeMs: c.CASCADE_MAX_AGE_MS,
    suppressionTtlSeconds: c.SUPPRESSION_TTL_SECONDS,
    smsMaxSegments: c.SMS_MAX_SEGMENTS,
  };
  const locks: WorkerLockConfig = {
    lockDurationMs: c.WORKER_LOCK_DURATION_MS,
    stalledIntervalMs: c.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: c.WORKER_MAX_STALLED_COUNT,
  };
  return {
    env: c.NODE_ENV,
    redisUrl: c.REDIS_URL,
    roles: c.WORKER_ROLES,
    providers: {
      push: { url: c.PROVIDER_PUSH_URL, timeoutMs: c.PROVIDER_TIMEOUT_MS },
      sms: { url: c.PROVIDER_SMS_URL, timeoutMs: c.PROVIDER_TIMEOUT_MS },
      email: { url: c.PROVIDER_EMAIL_URL, timeoutMs: c.PROVIDER_TIMEOUT_MS },
    } satisfies Record<Channel, { url: string; timeoutMs: number }>,
    bulkheads,
    cascade,
    locks,
    breaker: toBreakerConfig(c),
    heartbeatMs: c.PROCESS_HEARTBEAT_MS,
    intakeSweep: { intervalMs: c.INTAKE_SWEEP_INTERVAL_MS, minAgeMs: c.INTAKE_SWEEP_MIN_AGE_MS, batch: 500 },
    metricsHost: c.METRICS_HOST,
    metricsPort: c.METRICS_PORT,
    requireDurableRedis: c.REQUIRE_DURABLE_REDIS ?? c.NODE_ENV === 'production',
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    logLevel: c.LOG_LEVEL,
  };
}
