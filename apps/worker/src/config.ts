import { z } from 'zod';
import { CHANNELS, PRIORITIES, assignedPartitions, parsePartitionList, type Channel } from '@notify/core';
import {
  DEFAULT_ARCHIVER_CONFIG,
  DEFAULT_RECEIPT_INDEX_TTL_SECONDS,
  DEFAULT_WORKER_LOCKS,
  breakerEnvShape,
  cascadeEnvShape,
  fairShareEnvShape,
  quietHoursEnvShape,
  lanesEnv,
  reminderYieldEnvShape,
  laneWatchdogEnvShape,
  toLaneWatchdogConfig,
  toReminderYieldConfig,
  stepBatchEnv,
  toBreakerConfig,
  toCascadeConfig,
  type WorkerLockConfig,
} from '@notify/pipeline';
import {
  DEV_DEFAULTS,
  booleanEnv,
  devOrigin,
  parseRenamedEnv,
  providersEnvShape,
  scheduleWorkerEnvShape,
  serviceEnvShape,
  toHistoryConfig,
  toScheduleConfig,
  toHttpServerLimits,
  toProvidersConfig,
  toRedisTarget,
  type EnvRenames,
  toConsentConfig,
} from '@notify/runtime';
import { toWebhookConfig, webhookEnvShape } from '@notify/webhooks';

const ms = (fallback: number, max = 86_400_000) => z.coerce.number().int().min(0).max(max).default(fallback);
const int = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);
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

/** The twelve former lane variables, each with the LANES field that replaces it. */
const LANE_VARIABLES: [string, string][] = CHANNELS.flatMap((ch) =>
  PRIORITIES.flatMap((p): [string, string][] => [
    [`CONCURRENCY_${ch}_${p}`.toUpperCase(), `LANES={"${ch}":{"${p}":{"concurrency":…}}}`],
    [`RATE_${ch}_${p}`.toUpperCase(), `LANES={"${ch}":{"${p}":{"ratePerSecond":…}}}`],
  ]),
);

/** The worker's former names: read for one release with a warning naming the new one, or refused naming what replaces them. */
export const WORKER_RENAMES: EnvRenames = {
  renamed: {
    STEP_BATCH_MAX: 'CASCADE_BATCH_MAX',
    STEP_BATCH_LATER_WINDOW_MS: 'CASCADE_BATCH_WINDOW_MS',
    SUPPRESSION_TTL_SECONDS: 'CASCADE_SUPPRESSION_TTL_SECONDS',
    METRICS_HOST: 'WORKER_METRICS_HOST',
    METRICS_PORT: 'WORKER_METRICS_PORT',
    ARCHIVE_BATCH_SIZE: 'ARCHIVER_BATCH_SIZE',
    ARCHIVE_INTERVAL_MS: 'ARCHIVER_INTERVAL_MS',
    ARCHIVE_CONCURRENCY: 'ARCHIVER_CONCURRENCY',
  },
  replaced: Object.fromEntries(LANE_VARIABLES.map(([name, field]) => [name, `every lane is set in LANES: here ${field}`])),
};

/** The variables only the worker reads (the docs list them in its own section). */
export const workerOwnEnvShape = {
  ...scheduleWorkerEnvShape,
  WORKER_ROLES: roles.meta({ description: 'Which channel bulkheads this process runs: `all`, or a list such as `push` or `sms,email`.', defaultText: '`all`' }),
  WORKER_PARTITIONS: z
    .string()
    .default('all')
    .describe(
      'Which partitions this process consumes: `all` or a list of numbers and ranges (`0-7`, `0-3,8`). Or `WORKER_PARTITION_INDEX`/`WORKER_PARTITION_COUNT`.',
    ),
  WORKER_PARTITION_INDEX: z.coerce.number().int().min(0).optional().describe('With `WORKER_PARTITION_COUNT`: this process is number INDEX (0-based) of COUNT.'),
  WORKER_PARTITION_COUNT: z.coerce.number().int().min(1).optional().describe('See `WORKER_PARTITION_INDEX`.'),
  LANES: lanesEnv,
  ...reminderYieldEnvShape,
  ...laneWatchdogEnvShape,
  ...fairShareEnvShape,
  UNKNOWN_OUTCOME_PUSH: providersEnvShape.UNKNOWN_OUTCOME_PUSH,
  UNKNOWN_OUTCOME_SMS: providersEnvShape.UNKNOWN_OUTCOME_SMS,
  UNKNOWN_OUTCOME_EMAIL: providersEnvShape.UNKNOWN_OUTCOME_EMAIL,
  PROVIDER_PUSH_URL: url(DEV_DEFAULTS.providerPorts.push).describe('Origin of the push simulator (the push provider when `PROVIDERS_FILE` names none).'),
  PROVIDER_SMS_URL: url(DEV_DEFAULTS.providerPorts.sms).describe('Origin of the SMS simulator (likewise).'),
  PROVIDER_EMAIL_URL: url(DEV_DEFAULTS.providerPorts.email).describe('Origin of the e-mail simulator (likewise).'),
  PROVIDER_TIMEOUT_MS: ms(2_000, 60_000).describe(
    'A simulator call without an answer by then is an unknown outcome (reconciled, not retried elsewhere); the providers of `PROVIDERS_FILE` have their own `timeoutMs`.',
  ),
  ...cascadeEnvShape,
  ...quietHoursEnvShape,
  CASCADE_BATCH_MAX: stepBatchEnv.max.describe("A cascade's later steps of one lane per BullMQ batch job at most; `1` = one `step` job per step."),
  CASCADE_BATCH_WINDOW_MS: stepBatchEnv.laterWindowMs.describe(
    "How long a cascade's next step waits for others of its lane and delay to share one (delayed) batch job, instead of one BullMQ job each; a step then starts at most this long after its own delay. `0` = one job per step.",
  ),
  RECEIPT_INDEX_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(DEFAULT_RECEIPT_INDEX_TTL_SECONDS)
    .describe(
      "How long a provider's message id finds its notification for receipts, bounces and complaints (the receipt index, [docs/provider-events.md](provider-events.md)); at least 60.",
    ),
  WORKER_LOCK_DURATION_MS: ms(DEFAULT_WORKER_LOCKS.lockDurationMs, 600_000).describe('BullMQ job lock; a worker that dies loses its jobs to another after it.'),
  WORKER_STALLED_INTERVAL_MS: ms(DEFAULT_WORKER_LOCKS.stalledIntervalMs, 600_000).describe('How often BullMQ looks for stalled jobs.'),
  WORKER_MAX_STALLED_COUNT: z.coerce.number().int().min(1).default(DEFAULT_WORKER_LOCKS.maxStalledCount).describe('Stalls a job may survive.'),
  WORKER_COALESCE_WRITES: booleanEnv(true).describe(
    "The worker's Redis commands of one event-loop turn leave in one socket write (the socket is corked until the turn's end; bytes, order and replies unchanged). Single-node Redis only; a Cluster is left alone. `false` writes each command at once.",
  ),
  WORKER_METRICS_HOST: z.string().default(DEV_DEFAULTS.host).meta({
    description: "Interface of the worker's listener (`/metrics`, `/healthz`, `/readyz`).",
    mustSet: 'the interface Prometheus scrapes (loopback by default)',
  }),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(DEV_DEFAULTS.workerMetricsPort).describe('Its port (0 picks a free one).'),
  PROCESS_HEARTBEAT_MS: ms(2_000, 60_000).describe("Refresh of this process's registration (the chaos CLI finds workers there)."),
  INTAKE_SWEEP_INTERVAL_MS: ms(30_000, 3_600_000).describe('The intake sweeper re-adds first steps accepted but never started (0 = off).'),
  INTAKE_SWEEP_MIN_AGE_MS: ms(60_000, 86_400_000).describe('Only notifications accepted longer ago than this are swept.'),
  ARCHIVER_ENABLED: booleanEnv(true).describe(
    'With `HISTORY_ENABLED`: this worker runs an archiver, moving terminal notifications from Redis to PostgreSQL and leaving a compact idempotency entry (`true`/`false`/`1`/`0`). Several workers share the archive queue (claims with a lease).',
  ),
  ARCHIVER_BATCH_SIZE: int(DEFAULT_ARCHIVER_CONFIG.batchSize, 1, 5_000).describe(
    'Notifications per archive batch: one pipelined read, one PostgreSQL transaction, one compact script call (1–5000).',
  ),
  ARCHIVER_INTERVAL_MS: ms(DEFAULT_ARCHIVER_CONFIG.intervalMs, 600_000).describe(
    'Pause between archive passes once the queue is drained; while PostgreSQL fails the pause doubles, up to 30 intervals and at most 30 s (`notify_history_archive_failures_total`, `notify_history_backlog`).',
  ),
  ARCHIVER_CONCURRENCY: int(DEFAULT_ARCHIVER_CONFIG.concurrency, 1, 16).describe(
    "Archive batches in flight at once per archiver: the next batch's Redis claim overlaps the previous batch's PostgreSQL COPY.",
  ),
  ARCHIVER_LEASE_MS: int(DEFAULT_ARCHIVER_CONFIG.leaseMs, 1_000, 3_600_000).describe(
    "How long a claimed archive batch is its archiver's: a batch claimed by a worker that died is archived by another after this (ms). Longer than a batch's write to PostgreSQL takes.",
  ),
};

/** Every variable the worker reads, exported for the configuration docs. */
export const workerEnvShape = {
  ...serviceEnvShape,
  ...breakerEnvShape,
  ...webhookEnvShape,
  ...workerOwnEnvShape,
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
  const { values: c, warnings } = parseRenamedEnv('worker', schema, env, WORKER_RENAMES);
  const bulkheads = c.LANES;
  const simulatorSockets = (channel: Channel) => Math.min(1_000, bulkheads[channel].urgent.concurrency + bulkheads[channel].reminder.concurrency);
  const cascade = toCascadeConfig(c);
  const locks: WorkerLockConfig = {
    lockDurationMs: c.WORKER_LOCK_DURATION_MS,
    stalledIntervalMs: c.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: c.WORKER_MAX_STALLED_COUNT,
  };
  return {
    /** Former variable names read this time: logged once at start. */
    warnings,
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
    reminderYield: toReminderYieldConfig(c),
    laneWatchdog: toLaneWatchdogConfig(c),
    laneFairShare: c.LANE_FAIR_SHARE,
    cascade,
    locks,
    coalesceWrites: c.WORKER_COALESCE_WRITES,
    laterStepBatch: { max: c.CASCADE_BATCH_MAX, windowMs: c.CASCADE_BATCH_WINDOW_MS },
    breaker: toBreakerConfig(c),
    heartbeatMs: c.PROCESS_HEARTBEAT_MS,
    ...toScheduleConfig(c),
    intakeSweep: { intervalMs: c.INTAKE_SWEEP_INTERVAL_MS, minAgeMs: c.INTAKE_SWEEP_MIN_AGE_MS, batch: 500 },
    history: toHistoryConfig(c),
    webhooks: toWebhookConfig(c),
    receiptIndexTtlSeconds: c.RECEIPT_INDEX_TTL_SECONDS,
    quietHoursSpreadMs: c.QUIET_HOURS_SPREAD_SECONDS * 1_000,
    archiver: {
      enabled: c.ARCHIVER_ENABLED,
      config: {
        ...DEFAULT_ARCHIVER_CONFIG,
        batchSize: c.ARCHIVER_BATCH_SIZE,
        intervalMs: c.ARCHIVER_INTERVAL_MS,
        concurrency: c.ARCHIVER_CONCURRENCY,
        leaseMs: c.ARCHIVER_LEASE_MS,
        idempotencyWindowSeconds: c.IDEMPOTENCY_WINDOW_SECONDS,
        // While PostgreSQL fails the pause doubles up to 30 intervals (30 s by default).
        maxBackoffMs: Math.min(DEFAULT_ARCHIVER_CONFIG.maxBackoffMs, 30 * Math.max(100, c.ARCHIVER_INTERVAL_MS)),
      },
    },
    metricsHost: c.WORKER_METRICS_HOST,
    metricsPort: c.WORKER_METRICS_PORT,
    http: toHttpServerLimits(c),
    requireDurableRedis: c.REQUIRE_DURABLE_REDIS ?? c.NODE_ENV === 'production',
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    logLevel: c.LOG_LEVEL,
    consent: toConsentConfig(c, c.NODE_ENV === 'production'),
  };
}
