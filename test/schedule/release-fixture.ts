import { Redis } from 'ioredis';
import { killableWorkers } from '../harness/app-process';
import { postAllAccepted } from '../harness/batch-post';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * Killable worker processes for a fault during a release: small release batches, so a release
 * spans many script calls and enqueues (a fault lands between them), and the intake sweeper on a
 * short fuse, so a released first step whose job was never added is re-added within the test.
 * `env` comes last: a test may set its own.
 */
export function releasingWorkers(env: () => Record<string, string>): ReturnType<typeof killableWorkers> {
  return killableWorkers(() => ({ SCHEDULE_RELEASE_BATCH: '10', INTAKE_SWEEP_INTERVAL_MS: '300', INTAKE_SWEEP_MIN_AGE_MS: '1000', ...env() }));
}

/**
 * A test file's platform on one private redis-server (no in-process worker; `workers.start()`
 * adds a releasing worker process), with a connection of the test's own to that Redis (kept
 * from erroring while a test has Redis down). Everything is ended in afterAll.
 */
export function useReleasePlatform(simEnv: Record<string, string> = {}): {
  platform: () => TestPlatform;
  redis: () => Redis;
  workers: ReturnType<typeof killableWorkers>;
} {
  let platform: TestPlatform | undefined;
  let redis: Redis | undefined;
  const workers = releasingWorkers(() => (platform as TestPlatform).env);
  beforeAll(async () => {
    platform = await startTestPlatform({ workerCount: 0, simEnv });
    redis = new Redis(platform.redis.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
  });
  afterAll(async () => {
    await workers.killAll();
    redis?.disconnect();
    await platform?.stop();
  });
  return { platform: () => platform as TestPlatform, redis: () => redis as Redis, workers };
}

/** POSTs `count` push reminders all due `aheadMs` from now (`batch` a request); their ids and that instant (ms). */
export async function postDueTogether(apiUrl: string, prefix: string, count: number, aheadMs: number, batch: number): Promise<{ ids: string[]; due: number }> {
  const sendAt = new Date(Date.now() + aheadMs).toISOString();
  const bodies = Array.from({ length: count }, (_, i) => ({ ...notificationFor(i, 'push', { prefix, priority: 'reminder' }), sendAt }));
  return { ids: await postAllAccepted(apiUrl, bodies, batch), due: Date.parse(sendAt) };
}
