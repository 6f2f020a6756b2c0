import type { Redis } from 'ioredis';
import { readLedger, waitFor } from '@notify/platform-kit';
import { notificationFor } from '../fixtures/notifications';
import { killableWorkers, type AppProcess } from '../harness/app-process';
import { postAllAccepted } from '../harness/batch-post';
import { waitAllArchived } from '../history/archiver-fixture';
import type { HistoryPlatform } from '../history/history-platform';
import { PARKING_TEST_ENV, parkedCount, parkedRows, redisParkState, startParkingPlatform } from './parking-fixture';

/**
 * Worker processes SIGKILLed while they park and while they promote (small parker batches, so
 * each spans many PostgreSQL writes and script calls; wherever the kill lands, between a write
 * and its script or a script and its delete). Another worker goes on each time. Every
 * notification must be delivered once, none before its sendAt.
 */
const COUNT = 600;
const PARK_LEAD_MS = Number(PARKING_TEST_ENV.SCHEDULE_PARK_LEAD) * 1_000;
let running: HistoryPlatform;
let redis: Redis;
// Logging at info (the platform's env is silent): a test waits for the start-up line.
const workers = killableWorkers(() => ({ ...running.platform.env, SCHEDULE_PARK_BATCH: '5', LOG_LEVEL: 'info' }));

/** Waits for a worker process's start-up log line: its parker runs from then on. */
const started = (worker: AppProcess, what: string) => worker.waitReady(what, async () => worker.output().includes('worker started'), { timeoutMs: 60_000 });

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ running, redis, stop } = await startParkingPlatform('parking_sigkill', { workerCount: 0 }));
});
afterAll(async () => {
  await workers.killAll();
  await stop?.();
});

it('loses, doubles and sends early nothing when workers are SIGKILLed while parking and while promoting', async () => {
  // The first worker is up before anything is posted, so the sendAt need only leave room, ahead
  // of the park lead, for the posts, one more worker start and the parking of the rest: three
  // times this worker's start (the machine may be busier by then) and a few seconds.
  const spawnedAt = performance.now();
  const parking = workers.start();
  await started(parking, 'the first worker started');
  const workerStartMs = performance.now() - spawnedAt;
  const sendAt = new Date(Date.now() + PARK_LEAD_MS + 6_000 + 3 * workerStartMs).toISOString();
  const bodies = Array.from({ length: COUNT }, (_, i) => ({ ...notificationFor(i, 'push', { prefix: 'park-kill', priority: 'reminder' }), sendAt }));
  // Killed as soon as its first rows are written, while the posts may still go on.
  const posting = postAllAccepted(running.platform.api.url, bodies, 200);
  posting.catch(() => undefined);
  await waitFor('parking to begin', async () => (await parkedCount(running.historyUrl)) > 0, 30_000, 20);
  await parking.kill();
  const parkedAtKill = await parkedCount(running.historyUrl);
  workers.start();
  const ids = await posting;
  const rows = async () => (await parkedRows(running.historyUrl, ids)).size;
  await waitFor('every one parked', async () => (await rows()) === COUNT && (await redisParkState(redis, ids)).records === 0, 40_000, 100);

  const promoting = workers.start();
  await started(promoting, 'the promoting worker started');
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
    `parking SIGKILL: a worker up in ${Math.round(workerStartMs)} ms; ${parkedAtKill}/${COUNT} parked at the first kill, ${COUNT - leftAtKill} promoted at the second; ` +
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
