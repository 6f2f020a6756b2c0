import type { Redis } from 'ioredis';
import { readLedger, waitFor } from '@notify/platform-kit';
import { notificationFor } from '../fixtures/notifications';
import { killableWorkers } from '../harness/app-process';
import { postAllAccepted } from '../harness/batch-post';
import { waitAllArchived } from '../history/archiver-fixture';
import type { HistoryPlatform } from '../history/history-platform';
import { parkedRows, redisParkState, startParkingPlatform } from './parking-fixture';

/**
 * Worker processes SIGKILLed while they park and while they promote (small parker batches, so
 * each spans many PostgreSQL writes and script calls; wherever the kill lands, between a write
 * and its script or a script and its delete). Another worker goes on each time. Every
 * notification must be delivered once, none before its sendAt.
 */
const COUNT = 600;
let running: HistoryPlatform;
let redis: Redis;
const workers = killableWorkers(() => ({ ...running.platform.env, SCHEDULE_PARK_BATCH: '5' }));

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ running, redis, stop } = await startParkingPlatform('parking_sigkill', { workerCount: 0 }));
});
afterAll(async () => {
  await workers.killAll();
  await stop?.();
});

it('loses, doubles and sends early nothing when workers are SIGKILLed while parking and while promoting', async () => {
  // Far enough ahead for two worker starts (several seconds each on a loaded machine) before the park lead.
  const sendAt = new Date(Date.now() + 55_000).toISOString();
  const bodies = Array.from({ length: COUNT }, (_, i) => ({ ...notificationFor(i, 'push', { prefix: 'park-kill', priority: 'reminder' }), sendAt }));
  const ids = await postAllAccepted(running.platform.api.url, bodies, 200);
  const rows = async () => (await parkedRows(running.historyUrl, ids)).size;

  const parking = workers.start();
  await waitFor('parking to begin', async () => (await rows()) > 0, 30_000, 20);
  await parking.kill();
  const parkedAtKill = await rows();
  workers.start();
  await waitFor('every one parked', async () => (await rows()) === COUNT && (await redisParkState(redis, ids)).records === 0, 40_000, 100);

  const promoting = workers.start();
  await waitFor('promotion to begin', async () => (await rows()) < COUNT, 60_000, 20);
  await promoting.kill();
  const leftAtKill = await rows();
  workers.start();

  const views = await waitAllArchived(
    { redisUrl: running.platform.redis.url, historyUrl: running.historyUrl, store: running.store, tenant: 'tenant-a' },
    ids,
    120_000,
  );
  const ledger = await readLedger(running.platform.sims.controlUrl);
  const delivered = views.filter((v) => v.status === 'delivered').length;
  process.stdout.write(
    `parking SIGKILL: ${parkedAtKill}/${COUNT} parked at the first kill, ${COUNT - leftAtKill} promoted at the second; ` +
      `${delivered}/${COUNT} delivered, duplicates ${ledger.duplicateKeys.length}\n`,
  );
  expect(delivered / COUNT).toBeGreaterThanOrEqual(0.99);
  expect(ledger.deliveredKeys).toBe(delivered);
  expect(ledger.duplicateKeys).toEqual([]);
  expect(await rows()).toBe(0);
  const due = Date.parse(sendAt);
  for (const v of views) {
    expect(v.releasedAt).toBeGreaterThanOrEqual(due);
    for (const attempt of v.attempts) expect(attempt.startedAt).toBeGreaterThanOrEqual(due);
  }
});
