import { readLedger, waitFor } from '@notify/platform-kit';
import { postAllAccepted } from '../harness/batch-post';
import { readViews } from '../harness/notification-poll';
import { OTHER_TENANT_KEY, startTestPlatform, startTestWorker, TEST_API_KEY } from '../harness/platform';
import { tenantsFileEnv } from '../harness/tenants-file';
import { notificationFor } from '../fixtures/notifications';

/**
 * Fair-share weights inside a lane through the real api, worker and Redis: with no worker
 * running, tenant-a and then tenant-b put a large backlog each into the push reminder lane;
 * one worker with one slot on that lane then serves it. What is asserted is tenant-b's share
 * of the first steps the lane started first (when each record's first push attempt started),
 * never how long they took. tenant-b posts second, so first in, first out would give it none
 * of them, and weights ignored would give it half.
 */
const BACKLOG = 250;
/** The part of what the lane served that is measured: both tenants still have backlog all through it. */
const FIRST = 160;
/** Push calls the lane has made when the records are read: past FIRST, so the first FIRST starts are all among them. */
const READ_AFTER = 190;
/** One slot on the lane: first steps run one after another, in the order the lane serves them. */
const ONE_SLOT = JSON.stringify({ push: { reminder: { concurrency: 1 } } });
/**
 * One job per notification: the lane's turns are single steps. With the default batch jobs of
 * 64 steps, FIRST would be ~3 turns and a tenant's share would move in lumps of 64.
 */
const ONE_STEP_JOBS = { INTAKE_BATCH_MAX: '1' };

const reminders = (prefix: string) => Array.from({ length: BACKLOG }, (_, i) => notificationFor(i, 'push', { prefix, priority: 'reminder' }));

/** tenant-b's share of the first FIRST first steps the lane started, with these weights. */
async function secondTenantShare(weights: { 'tenant-a': number; 'tenant-b': number }): Promise<number> {
  const tenants = { 'tenant-a': { weight: weights['tenant-a'] }, 'tenant-b': { weight: weights['tenant-b'] } };
  const platform = await startTestPlatform({
    workerCount: 0,
    // Providers that answer at once: the lane's turns follow each other without a wait between them.
    simEnv: { SIM_LATENCY_MS: '0' },
    env: { LANES: ONE_SLOT, ...ONE_STEP_JOBS, ...tenantsFileEnv(tenants) },
  });
  try {
    const firstIds = await postAllAccepted(platform.api.url, reminders('first'), 500, TEST_API_KEY);
    const secondIds = await postAllAccepted(platform.api.url, reminders('second'), 500, OTHER_TENANT_KEY);
    const worker = await startTestWorker(platform);
    try {
      await waitFor(
        `the lane to make ${READ_AFTER} push calls`,
        async () => ((await readLedger(platform.sims.controlUrl)).calls.push ?? 0) >= READ_AFTER,
        60_000,
        50,
      );
    } finally {
      // Closed before the read: no first step is half-written while the records are read.
      await worker.close();
    }
    const views = await readViews(platform.redis.url, [...firstIds, ...secondIds]);
    // The lane's order: when each first step (push, the preferred channel) started. The simulators
    // fail a few at random, and their later steps go to other lanes; records not served yet have none.
    const starts = views.flatMap((view, i) => {
      const at = view.attempts.find((a) => a.step === 1 && a.channel === 'push')?.startedAt;
      return at === undefined ? [] : [{ at, second: i >= BACKLOG }];
    });
    expect(starts.length).toBeGreaterThanOrEqual(FIRST);
    const first = starts.sort((x, y) => x.at - y.at).slice(0, FIRST);
    const share = first.filter((s) => s.second).length / FIRST;
    process.stdout.write(
      `lane weights ${weights['tenant-a']}:${weights['tenant-b']}: tenant-b served ${share} of the first ${FIRST} (${starts.length} started)\n`,
    );
    return share;
  } finally {
    await platform.stop();
  }
}

it('weights 1 and 3: the heavier tenant gets about three of every four turns while both have backlog', async () => {
  const share = await secondTenantShare({ 'tenant-a': 1, 'tenant-b': 3 });
  expect(share).toBeGreaterThanOrEqual(0.65);
  expect(share).toBeLessThanOrEqual(0.85);
});

it('equal weights: the two tenants take turns, about half each', async () => {
  const share = await secondTenantShare({ 'tenant-a': 1, 'tenant-b': 1 });
  expect(share).toBeGreaterThanOrEqual(0.4);
  expect(share).toBeLessThanOrEqual(0.6);
});
