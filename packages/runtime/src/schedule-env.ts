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

/** The worker's releaser of due scheduled notifications (docs/scheduling.md). */
export const scheduleWorkerEnvShape = {
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
