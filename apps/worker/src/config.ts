import { z } from 'zod';
import { CHANNELS, assignedPartitions, parsePartitionList, type Channel, type Priority } from '@notify/core';
import {
  DEFAULT_ARCHIVER_CONFIG,
  DEFAULT_BULKHEADS,
  DEFAULT_CASCADE_CONFIG,
  DEFAULT_RECEIPT_INDEX_TTL_SECONDS,
  DEFAULT_WORKER_LOCKS,
  breakerEnvShape,
  stepBatchEnv,
  toBreakerConfig,
  type BulkheadConfig,
  type CascadeConfig,
  type WorkerLockConfig,
} from '@notify/pipeline';
import {
  DEV_DEFAULTS,
  booleanEnv,
  devOrigin,
  historyEnvShape,
  httpServerLimitsEnvShape,
  parseEnv,
  providersEnvShape,
  sharedEnvShape,
  toHistoryConfig,
  toHttpServerLimits,
  toProvidersConfig,
  toRedisTarget,
} from '@notify/runtime';
import { toWebhookConfig, webhookEnvShape } from '@notify/webhooks';

const ms = (fallback: number, max = 86_400_000) => z.coerce.number().int().min(0).max(max).default(fallback);
const url = (port: number) =>
  z
    .string()
    .regex(/^https?:\/\/[^/]+$/, `must be an origin like ${devOrigin(port)}`)
    .default(devOrigin(port));

const roles = z
  .string()
  .default('all')
  .transform((text, ctx) => {
    const list = text
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    if (list.length === 1 && list[0] === 'all') return [...CHANNELS];
    const bad = list.filter((r) => !(CHANNELS as readonly string[]).includes(r));
    if (bad.length > 0 || list.length === 0) {
      ctx.addIssue({ code: 'custom', message: `unknown role(s) ${bad.join(', ') || '(empty)'}; use 'all' or a list of ${CHANNELS.join(', ')}` });
      return z.NEVER;
    }
    return [...new Set(list)] as Channel[];
  });

/** A lane's concurrency and rate variables, defaulting to the lane's sizing (BI4/BI5 derived). */
const concurrency = (channel: Channel, priority: Priority) =>
  z.coerce.number().int().min(1).max(1_000).default(DEFAULT_BULKHEADS[channel][priority].concurrency);
const rate = (channel: Channel, priority: Priority) => z.coerce.number().int().min(0).max(100_000).default(DEFAULT_BULKHEADS[channel][priority].ratePerSecond);

/** Written out (not generated) so each variable keeps its own type: no Record<string, number> cast. */
const laneShape = {
  CONCURRENCY_PUSH_URGENT: concurrency('push', 'urgent'),
  CONCURRENCY_PUSH_REMINDER: concurrency('push', 'reminder'),
  CONCURRENCY_SMS_URGENT: concurrency('sms', 'urgent'),
  CONCURRENCY_SMS_REMINDER: concurrency('sms', 'reminder'),
  CONCURRENCY_EMAIL_URGENT: concurrency('email', 'urgent'),
  CONCURRENCY_EMAIL_REMINDER: concurrency('email', 'reminder'),
  RATE_PUSH_URGENT: rate('push', 'urgent'),
  RATE_PUSH_REMINDER: rate('push', 'reminder'),
  RATE_SMS_URGENT: rate('sms', 'urgent'),
  RATE_SMS_REMINDER: rate('sms', 'reminder'),
  RATE_EMAIL_URGENT: rate('email', 'urgent'),
  RATE_EMAIL_REMINDER: rate('email', 'reminder'),
};

/** Every variable the worker reads, exported for the configuration docs test. */
export const workerEnvShape = {
  ...sharedEnvShape,
  ...breakerEnvShape,
  ...httpServerLimitsEnvShape,
  ...historyEnvShape,
  ...providersEnvShape,
  ...webhookEnvShape,
  ...laneShape,
  /** Which channel bulkheads run in this process: 'all' (default) or e.g. 'push' or 'sms,email'. */
  WORKER_ROLES: roles,
  /**
   * Which partitions this process consumes (docs/partitions.md): 'all' (default) or a list of
   * numbers and ranges ('0-7', '0-3,8'). Or WORKER_PARTITION_INDEX/WORKER_PARTITION_COUNT.
   */
  WORKER_PARTITIONS: z.string().default('all'),
  /** With WORKER_PARTITION_COUNT: this process is number INDEX (0-based) of COUNT, and takes its share of the partitions. */
  WORKER_PARTITION_INDEX: z.coerce.number().int().min(0).optional(),
  WORKER_PARTITION_COUNT: z.coerce.number().int().min(1).optional(),
  PROVIDER_PUSH_URL: url(DEV_DEFAULTS.providerPorts.push),
  PROVIDER_SMS_URL: url(DEV_DEFAULTS.providerPorts.sms),
  PROVIDER_EMAIL_URL: url(DEV_DEFAULTS.providerPorts.email),
  PROVIDER_TIMEOUT_MS: ms(2_000, 60_000),
  CASCADE_TRANSIENT_DELAY_MS: ms(DEFAULT_CASCADE_CONFIG.transientDelayMs),
  CASCADE_PERMANENT_DELAY_MS: ms(DEFAULT_CASCADE_CONFIG.permanentDelayMs),
  CASCADE_RECONCILE_DELAY_MS: ms(DEFAULT_CASCADE_CONFIG.reconcileDelayMs),
  CASCADE_UNAVAILABLE_RETRY_MS: ms(DEFAULT_CASCADE_CONFIG.unavailableRetryMs),
  CASCADE_MAX_AGE_MS: ms(DEFAULT_CASCADE_CONFIG.maxAgeMs, 7 * 86_400_000),
  /** Later steps per batch job at most, and how long a cascade's next step waits for others of its lane and delay (0 = one job per step). */
  STEP_BATCH_MAX: stepBatchEnv.max,
  STEP_BATCH_LATER_WINDOW_MS: stepBatchEnv.laterWindowMs,
  SUPPRESSION_TTL_SECONDS: z.coerce.number().int().min(0).default(DEFAULT_CASCADE_CONFIG.suppressionTtlSeconds),
  /** How long a provider message id finds its notification for receipts and bounces (docs/provider-events.md). */
  RECEIPT_INDEX_TTL_SECONDS: z.coerce.number().int().min(60).default(DEFAULT_RECEIPT_INDEX_TTL_SECONDS),
  SMS_MAX_SEGMENTS: z.coerce.number().int().min(1).max(10).default(DEFAULT_CASCADE_CONFIG.smsMaxSegments),
  WORKER_LOCK_DURATION_MS: ms(DEFAULT_WORKER_LOCKS.lockDurationMs, 600_000),
  WORKER_STALLED_INTERVAL_MS: ms(DEFAULT_WORKER_LOCKS.stalledIntervalMs, 600_000),
  WORKER_MAX_STALLED_COUNT: z.coerce.number().int().min(1).default(DEFAULT_WORKER_LOCKS.maxStalledCount),
  /** Join the Redis socket writes of one event-loop turn (packages/pipeline/src/write-coalescer.ts); single-node Redis only. */
  WORKER_COALESCE_WRITES: booleanEnv(true),
  METRICS_HOST: z.string().default(DEV_DEFAULTS.host),
  /** Where this worker serves /metrics, /healthz, /readyz; 0 picks a free port. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(DEV_DEFAULTS.workerMetricsPort),
  /** How often this process refreshes its registration (the chaos CLI finds workers there); it expires after 3 missed beats. */
  PROCESS_HEARTBEAT_MS: ms(2_000, 60_000),
  /** Intake sweeper: re-adds first steps of notifications accepted but never started (0 = off). */
  INTAKE_SWEEP_INTERVAL_MS: ms(30_000, 3_600_000),
  INTAKE_SWEEP_MIN_AGE_MS: ms(60_000, 86_400_000),
  /** With history on: this worker runs an archiver (several workers share the archive queue). */
  ARCHIVER_ENABLED: booleanEnv(true),
  ARCHIVE_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(DEFAULT_ARCHIVER_CONFIG.batchSize),
  ARCHIVE_INTERVAL_MS: ms(DEFAULT_ARCHIVER_CONFIG.intervalMs, 600_000),
  /** Archive batches in flight at once per archiver (a Redis claim overlaps the previous batch's PostgreSQL write). */
  ARCHIVE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(DEFAULT_ARCHIVER_CONFIG.concurrency),
};
const schema = z.object(workerEnvShape);

export type WorkerConfig = ReturnType<typeof loadConfig>;

/** WORKER_PARTITIONS, or this process's share by WORKER_PARTITION_INDEX of WORKER_PARTITION_COUNT (no gaps, no overlaps). */
function workerPartitions(c: z.infer<typeof schema>): number[] {
  const byIndex = c.WORKER_PARTITION_INDEX !== undefined || c.WORKER_PARTITION_COUNT !== undefined;
  try {
    if (!byIndex) return parsePartitionList(c.WORKER_PARTITIONS, c.PARTITIONS);
    if (c.WORKER_PARTITIONS !== 'all') throw new Error('set WORKER_PARTITIONS or WORKER_PARTITION_INDEX/WORKER_PARTITION_COUNT, not both');
    if (c.WORKER_PARTITION_INDEX === undefined || c.WORKER_PARTITION_COUNT === undefined)
      throw new Error('WORKER_PARTITION_INDEX and WORKER_PARTITION_COUNT go together');
    return assignedPartitions(c.WORKER_PARTITION_INDEX, c.WORKER_PARTITION_COUNT, c.PARTITIONS);
  } catch (error) {
    throw new Error(`worker configuration: ${(error as Error).message}`);
  }
}

export function loadConfig(env: Record<string, string | undefined>) {
  const c = parseEnv('worker', schema, env);
  const bulkheads: BulkheadConfig = {
    push: {
      urgent: { concurrency: c.CONCURRENCY_PUSH_URGENT, ratePerSecond: c.RATE_PUSH_URGENT },
      reminder: { concurrency: c.CONCURRENCY_PUSH_REMINDER, ratePerSecond: c.RATE_PUSH_REMINDER },
    },
    sms: {
      urgent: { concurrency: c.CONCURRENCY_SMS_URGENT, ratePerSecond: c.RATE_SMS_URGENT },
      reminder: { concurrency: c.CONCURRENCY_SMS_REMINDER, ratePerSecond: c.RATE_SMS_REMINDER },
    },
    email: {
      urgent: { concurrency: c.CONCURRENCY_EMAIL_URGENT, ratePerSecond: c.RATE_EMAIL_URGENT },
      reminder: { concurrency: c.CONCURRENCY_EMAIL_REMINDER, ratePerSecond: c.RATE_EMAIL_REMINDER },
    },
  };
  const simulatorSockets = (channel: Channel) => Math.min(1_000, bulkheads[channel].urgent.concurrency + bulkheads[channel].reminder.concurrency);
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
    redis: toRedisTarget(c),
    partitions: c.PARTITIONS,
    /** The partitions this process consumes. */
    workerPartitions: workerPartitions(c),
    roles: c.WORKER_ROLES,
    // Each channel's providers (PROVIDERS_FILE); a channel it does not name keeps its simulator,
    // whose socket pool is part of the bulkhead: as many sockets as the channel's lanes run calls.
    providers: toProvidersConfig(c, env, {
      push: { url: c.PROVIDER_PUSH_URL, timeoutMs: c.PROVIDER_TIMEOUT_MS, connections: simulatorSockets('push') },
      sms: { url: c.PROVIDER_SMS_URL, timeoutMs: c.PROVIDER_TIMEOUT_MS, connections: simulatorSockets('sms') },
      email: { url: c.PROVIDER_EMAIL_URL, timeoutMs: c.PROVIDER_TIMEOUT_MS, connections: simulatorSockets('email') },
    }),
    bulkheads,
    cascade,
    locks,
    coalesceWrites: c.WORKER_COALESCE_WRITES,
    laterStepBatch: { max: c.STEP_BATCH_MAX, windowMs: c.STEP_BATCH_LATER_WINDOW_MS },
    breaker: toBreakerConfig(c),
    heartbeatMs: c.PROCESS_HEARTBEAT_MS,
    intakeSweep: { intervalMs: c.INTAKE_SWEEP_INTERVAL_MS, minAgeMs: c.INTAKE_SWEEP_MIN_AGE_MS, batch: 500 },
    history: toHistoryConfig(c),
    webhooks: toWebhookConfig(c),
    receiptIndexTtlSeconds: c.RECEIPT_INDEX_TTL_SECONDS,
    archiver: {
      enabled: c.ARCHIVER_ENABLED,
      config: {
        ...DEFAULT_ARCHIVER_CONFIG,
        batchSize: c.ARCHIVE_BATCH_SIZE,
        intervalMs: c.ARCHIVE_INTERVAL_MS,
        concurrency: c.ARCHIVE_CONCURRENCY,
        idempotencyWindowSeconds: c.IDEMPOTENCY_WINDOW_SECONDS,
        // While PostgreSQL fails the pause doubles up to 30 intervals (30 s by default).
        maxBackoffMs: Math.min(DEFAULT_ARCHIVER_CONFIG.maxBackoffMs, 30 * Math.max(100, c.ARCHIVE_INTERVAL_MS)),
      },
    },
    metricsHost: c.METRICS_HOST,
    metricsPort: c.METRICS_PORT,
    http: toHttpServerLimits(c),
    requireDurableRedis: c.REQUIRE_DURABLE_REDIS ?? c.NODE_ENV === 'production',
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    logLevel: c.LOG_LEVEL,
  };
}
