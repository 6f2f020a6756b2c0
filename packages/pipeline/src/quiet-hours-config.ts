import { z } from 'zod';
import { DEFAULT_QUIET_HOURS_SPREAD_MS } from './step-processor';

/** The worker's quiet-hours variable (the windows themselves come with each notification, decided at intake). */
export const quietHoursEnvShape = {
  QUIET_HOURS_SPREAD_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(6 * 3_600)
    .default(DEFAULT_QUIET_HOURS_SPREAD_MS / 1_000)
    .describe(
      'Steps held back by quiet hours are released over this many seconds after the window ends, each at a point fixed by its notification id, so a night of reminders does not leave in the same second ([quiet hours](quiet-hours.md)); 0 releases all at the end. At most 6 hours.',
    ),
};
