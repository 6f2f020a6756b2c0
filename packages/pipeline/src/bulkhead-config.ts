import { z } from 'zod';
import { CHANNELS, PRIORITIES, type Channel, type Priority } from '@notify/core';

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

const count = (min: number, max: number, what: string) =>
  z
    .number({ error: `expected ${what}` })
    .int(`expected ${what}`)
    .min(min, `expected ${what}`)
    .max(max, `expected at most ${max}`);

const laneOverride = z.strictObject({ concurrency: count(1, 1_000, 'a positive integer'), ratePerSecond: count(0, 100_000, 'an integer >= 0') }).partial();
const channelOverride = z.strictObject(Object.fromEntries(PRIORITIES.map((p) => [p, laneOverride.optional()])));
const lanesOverride = z.strictObject(Object.fromEntries(CHANNELS.map((c) => [c, channelOverride.optional()])));

/** The default concurrencies as the docs print them: `push 48/24, sms 22/11, email 18/9`. */
const lanesText = CHANNELS.map((c) => `${c} ${PRIORITIES.map((p) => DEFAULT_BULKHEADS[c][p].concurrency).join('/')}`).join(', ');

/**
 * LANES: every lane's bulkhead in one JSON value, e.g.
 * `{"push":{"urgent":{"concurrency":64}},"sms":{"reminder":{"ratePerSecond":100}}}`; a lane or a
 * field it does not name keeps its default. Issues name the field: `LANES.push.urgent.concurrency`.
 */
export const lanesEnv = z
  .preprocess((text, ctx) => {
    if (text === undefined || (typeof text === 'string' && text.trim() === '')) return {};
    if (typeof text !== 'string') return text;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object such as {"push":{"urgent":{"concurrency":64}}}' });
      return z.NEVER;
    }
  }, lanesOverride)
  .transform((given): BulkheadConfig => {
    const lanes = given as Partial<Record<Channel, Partial<Record<Priority, Partial<LaneConfig>>>>>;
    const merged = (c: Channel) =>
      Object.fromEntries(PRIORITIES.map((p) => [p, { ...DEFAULT_BULKHEADS[c][p], ...lanes[c]?.[p] }])) as Record<Priority, LaneConfig>;
    return Object.fromEntries(CHANNELS.map((c) => [c, merged(c)])) as BulkheadConfig;
  })
  .meta({
    description: `Every lane's bulkhead as one JSON object: channel (\`push\`, \`sms\`, \`email\`) → priority class (\`urgent\`, \`reminder\`) → \`concurrency\` (calls at once in this process, 1–1000) and \`ratePerSecond\` (jobs started per second across every process, BullMQ's limiter; 0 = unlimited), e.g. \`{"push":{"urgent":{"concurrency":64}},"sms":{"reminder":{"ratePerSecond":100}}}\`. A lane or field it does not name keeps its default: concurrency urgent/reminder ${lanesText} (sized from the peak call rates), rate 0.`,
    defaultText: 'the sizing in its description',
  });
