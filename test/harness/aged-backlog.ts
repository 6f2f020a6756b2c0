import { Redis } from 'ioredis';
import { pendingIntakeKey, pendingUrgentKey } from '@notify/core';
import { sumSamples } from '@notify/platform-kit';
import { startTestPlatform, type TestPlatform } from './platform';

/**
 * A test file's platform for intake push-back: no worker, so what is accepted waits, and the
 * backpressure bound and count given. How long the backlog has waited is what the pending-intake
 * and pending-urgent sets' scores say, so `age` moves them back instead of waiting the bound out
 * on the clock.
 */
export function useBackloggedPlatform(bound: { waitMs: number; count: number }) {
  let platform: TestPlatform | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    platform = await startTestPlatform({
      workerCount: 0,
      env: { INTAKE_BACKPRESSURE_WAIT_MS: String(bound.waitMs), INTAKE_BACKPRESSURE_COUNT: String(bound.count) },
    });
    redis = new Redis(platform.redis.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await platform?.stop();
  });
  const current = () => platform as TestPlatform;
  return {
    platform: current,
    /** Moves every waiting notification's acceptance `ageMs` into the past, as if the lanes had not drained it since; returns their ids. */
    async age(ageMs: number): Promise<string[]> {
      const ids = await (redis as Redis).zrange(pendingIntakeKey(0), '0', '-1');
      const scores = ids.flatMap((id) => [String(Date.now() - ageMs), id]);
      await (redis as Redis).zadd(pendingIntakeKey(0), 'XX', ...scores);
      // Only the urgent ones are in the urgent set: XX ages them and adds no reminder.
      if (ids.length > 0) await (redis as Redis).zadd(pendingUrgentKey(0), 'XX', ...scores);
      return ids;
    },
    /** How many urgent notifications wait for a worker to take up their first step. */
    urgentWaiting(): Promise<number> {
      return (redis as Redis).zcard(pendingUrgentKey(0));
    },
    /** A metric of the api's `/metrics`, its samples matching `labels` summed. */
    async metric(name: string, labels: Record<string, string>): Promise<number> {
      return sumSamples(await (await fetch(current().api.metricsUrl)).text(), name, labels);
    },
  };
}
