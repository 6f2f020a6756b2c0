import type { Channel, Priority } from '@notify/core';

export interface LaneConfig {
  /** Jobs this lane runs at once in this process. */
  concurrency: number;
  /** Queue-wide (all processes) cap on jobs started per second; 0 = no cap. */
  ratePerSecond: number;
}

/** One bulkhead per channel: a lane per priority class, each with its own workers and limits. */
export type BulkheadConfig = Record<Channel, Record<Priority, LaneConfig>>;

/**
 * BullMQ's at-least-once settings. A worker that dies holding a job loses its lock after
 * `lockDurationMs`; the stalled-job checker (every `stalledIntervalMs`) hands the job to another
 * worker. Our steps are idempotent, so a high `maxStalledCount` only means "never give up".
 */
export interface WorkerLockConfig {
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
}

/**
 * Default concurrency is proportional to BI4's peak call rates (push 954.86, SMS 434.03,
 * e-mail 347.22 calls/s): Little's law with ~50 ms provider latency gives 48 / 22 / 18 calls in
 * flight; the urgent lanes get that, the reminder lanes half of it.
 */
export const DEFAULT_BULKHEADS: BulkheadConfig = {
  push: { urgent: { concurrency: 48, ratePerSecond: 0 }, reminder: { concurrency: 24, ratePerSecond: 0 } },
  sms: { urgent: { concurrency: 22, ratePerSecond: 0 }, reminder: { concurrency: 11, ratePerSecond: 0 } },
  email: { urgent: { concurrency: 18, ratePerSecond: 0 }, reminder: { concurrency: 9, ratePerSecond: 0 } },
};

export const DEFAULT_WORKER_LOCKS: WorkerLockConfig = {
  lockDurationMs: 30_000,
  stalledIntervalMs: 30_000,
  maxStalledCount: 1_000,
};
