import { z } from 'zod';
import { DEFAULT_BACKPRESSURE, type BackpressureConfig } from '@notify/pipeline';

/** The api's push-back when the lanes fall behind (docs/backpressure.md). */
export const backpressureEnvShape = {
  INTAKE_BACKPRESSURE_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(DEFAULT_BACKPRESSURE.waitMs)
    .describe(
      'How far behind the lanes may fall: new reminders are answered 503 `BACKLOG_FULL` (with `Retry-After`) while more than `INTAKE_BACKPRESSURE_COUNT` notifications of either class have made no progress for longer than this; urgent ones only while more than that many urgent notifications have waited three times this for a worker to take up their first step. `0` = never refused.',
    ),
  INTAKE_BACKPRESSURE_COUNT: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .default(DEFAULT_BACKPRESSURE.count)
    .describe('How many notifications past the wait it takes to push back (a few stragglers, a step being retried, do not).'),
};

export function toBackpressureConfig(c: { INTAKE_BACKPRESSURE_WAIT_MS: number; INTAKE_BACKPRESSURE_COUNT: number }): BackpressureConfig {
  return { waitMs: c.INTAKE_BACKPRESSURE_WAIT_MS, count: c.INTAKE_BACKPRESSURE_COUNT, pollMs: DEFAULT_BACKPRESSURE.pollMs };
}
