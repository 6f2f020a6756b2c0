import { Redis } from 'ioredis';
import { dueIndexKey } from '@notify/core';
import { readLedger, waitFor } from '@notify/platform-kit';
import { killableWorkers } from '../harness/app-process';
import { postAllAccepted } from '../harness/batch-post';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * A worker process is SIGKILLed while it releases a block of notifications due at the same
 * instant (small release batches, so the release spans many script calls and enqueues). What
 * it released but had not enqueued yet is accepted and in the pending-intake set: another
 * worker's intake sweeper adds those first steps. Nothing may be lost, sent twice or sent early.
 */
const COUNT = 1_500;
let platform: TestPlatform;
let redis: Redis;
// Small release batches, so a release spans many script calls; the sweeper on a short fuse.
const workers = killableWorkers(() => ({
  ...platform.env,
  SCHEDULE_RELEASE_BATCH: '10',
  INTAKE_SWEEP_INTERVAL_MS: '300',
  INTAKE_SWEEP_MIN_AGE_MS: '1000',
}));

beforeAll(async () => {
  platform = await startTestPlatform({ workerCount: 0 });
  redis = new Redis(platform.redis.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await workers.killAll();
  redis?.disconnect();
  await platform?.stop();
});

it('loses, duplicates and sends early nothing when a worker is SIGKILLed during a release', async () => {
  // Far enough ahead that every one is still scheduled when its batch is accepted, on a busy machine too.
  const sendAt = new Date(Date.now() + 10_000).toISOString();
  const bodies = Array.from({ length: COUNT }, (_, i) => ({ ...notificationFor(i, 'push', { prefix: 'release-crash', priority: 'reminder' }), sendAt }));
  const ids = await postAllAccepted(platform.api.url, bodies, 500);
  expect(await redis.zcard(dueIndexKey())).toBe(COUNT);

  const victim = workers.start();
  await waitFor('the release to begin', async () => (await redis.zcard(dueIndexKey())) < COUNT, 30_000, 2);
  await victim.kill();
  const leftInIndex = await redis.zcard(dueIndexKey());
  const deliveredAtKill = (await readLedger(platform.sims.controlUrl)).deliveries;

  workers.start();
  const views = await waitAllTerminal(platform.redis.url, ids, 90_000);
  const ledger = await readLedger(platform.sims.controlUrl);
  const delivered = views.filter((v) => v.status === 'delivered').length;
  process.stdout.write(
    `release crash: SIGKILL with ${COUNT - leftInIndex}/${COUNT} taken from the due index and ${deliveredAtKill} delivered; ` +
      `${delivered}/${COUNT} delivered in the end, duplicates ${ledger.duplicateKeys.length}\n`,
  );
  const due = Date.parse(sendAt);
  // Every one ended (waitAllTerminal); the simulators' own permanent failures are the only misses.
  expect(delivered / COUNT).toBeGreaterThanOrEqual(0.99);
  expect(ledger.deliveredKeys).toBe(delivered);
  expect(ledger.duplicateKeys).toEqual([]);
  for (const v of views) {
    expect(v.releasedAt).toBeGreaterThanOrEqual(due);
    for (const attempt of v.attempts) expect(attempt.startedAt).toBeGreaterThanOrEqual(due);
  }
});
