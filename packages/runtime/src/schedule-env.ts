import { z } from 'zod';

/** The api's scheduling limit (docs/scheduling.md): how far ahead a `sendAt` may be. */
export const scheduleApiEnvShape = {
  SCHEDULE_MAX_AHEAD: z.coerce
    .number()
    .int()
    .min(60)
    .max(366 * 86_400)
    .default(30 * 86_400)
    .describe('How far ahead a `sendAt` may be, in seconds (default 30 days); a later one is refused with a 400 naming `sendAt`.'),
};

/** The worker's parker of far-future scheduled notifications (docs/scheduling.md, "Parking"): only with the history on. */
export const scheduleParkEnvShape = {
  SCHEDULE_PARK_LEAD: z.coerce
    .number()
    .int()
    .min(2)
    .max(366 * 86_400)
    .default(3_600)
    .describe(
      'With the history on: a scheduled notification due later than this many seconds ahead waits in PostgreSQL, leaving a stub of ~30 B in Redis (default 1 h).',
    ),
  SCHEDULE_PROMOTE_LEAD: z.coerce
    .number()
    .int()
    .min(1)
    .max(366 * 86_400)
    .default(600)
    .describe('A parked notification is brought back to Redis this many seconds before its sendAt (default 10 min); less than `SCHEDULE_PARK_LEAD`.'),
  SCHEDULE_PARK_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(5_000)
    .describe('How often the parker parks and promotes (0 = off: every scheduled notification waits in Redis).'),
  SCHEDULE_PARK_BATCH: z.coerce
    .number()
    .int()
    .min(1)
    .max(5_000)
    .default(500)
    .describe('Notifications per parker batch: one PostgreSQL statement and one script call each.'),
};

/** The worker's releaser of due scheduled notifications and its parker (docs/scheduling.md). */
export const scheduleWorkerEnvShape = {
  ...scheduleParkEnvShape,
  SCHEDULE_RELEASE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(100)
    .describe('How often the releaser looks for due scheduled notifications (0 = off); a release is late by at most about this plus one batch.'),
  SCHEDULE_RELEASE_BATCH: z.coerce
    .number()
    .int()
    .min(1)
    .max(5_000)
    .default(500)
    .describe('Due notifications moved to their lanes per release script call (one call per batch, one partition each).'),
};

/** The releaser's `release` and the parker's `park` (ms); the promote lead must be the shorter (a notification promoted is never parked again). */
export function toScheduleConfig(c: { [K in keyof typeof scheduleWorkerEnvShape]: number }) {
  if (c.SCHEDULE_PROMOTE_LEAD >= c.SCHEDULE_PARK_LEAD) {
    throw new Error(`worker configuration: SCHEDULE_PROMOTE_LEAD (${c.SCHEDULE_PROMOTE_LEAD}) must be less than SCHEDULE_PARK_LEAD (${c.SCHEDULE_PARK_LEAD})`);
  }
  return {
    release: { intervalMs: c.SCHEDULE_RELEASE_INTERVAL_MS, batch: c.SCHEDULE_RELEASE_BATCH },
    park: {
      intervalMs: c.SCHEDULE_PARK_INTERVAL_MS,
      parkLeadMs: c.SCHEDULE_PARK_LEAD * 1_000,
      promoteLeadMs: c.SCHEDULE_PROMOTE_LEAD * 1_000,
      batch: c.SCHEDULE_PARK_BATCH,
    },
  };
}
