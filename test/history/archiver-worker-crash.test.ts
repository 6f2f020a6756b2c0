import { Redis } from 'ioredis';
import { notificationKey } from '@notify/core';
import { readLedger, waitFor } from '@notify/platform-kit';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { spawnKillableWorker, type AppProcess } from '../harness/app-process';
import { postAllAccepted } from '../harness/batch-post';
import { expectCompleteHistory } from '../harness/view-assertions';
import { historyCounts, redisLeft, waitAllArchived } from './archiver-fixture';
import { startHistoryPlatform, type HistoryPlatform } from './history-platform';

/**
 * The worker-crash test (test/pipeline/worker-crash.test.ts) with history on: a worker process
 * running the channel lanes AND an archiver is SIGKILLed mid-run. Its claimed archive batch
 * comes back after the lease; the other worker archives everything exactly once, and the
 * history shows the reconciled calls (worker-lost) with their complete attempt histories.
 */
const COUNT = 600;
const TENANT = 'tenant-a';
let running: HistoryPlatform;
const workers: AppProcess[] = [];

beforeAll(async () => {
  running = await startHistoryPlatform('worker_crash', { workerCount: 0, simEnv: { SIM_LATENCY_MS: '40' } });
});
afterAll(async () => {
  for (const worker of workers) await worker.kill();
  await running?.stop();
});

function startWorker(): AppProcess {
  // A batch the victim had claimed is archived by the next worker after the lease, not after the default 30 s.
  const worker = spawnKillableWorker({ ...running.platform.env, ARCHIVER_LEASE_MS: '5000' });
  workers.push(worker);
  return worker;
}

const ledger = () => readLedger(running.platform.sims.controlUrl);

/** How many of these notifications are mid-call right now (status `sending` in Redis). */
async function sendingNow(ids: readonly string[]): Promise<number> {
  const redis = new Redis(running.platform.redis.url, { maxRetriesPerRequest: 1 });
  try {
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hget(notificationKey(id), 'status');
    const results = (await pipeline.exec()) ?? [];
    return results.filter(([, status]) => status === 'sending').length;
  } finally {
    redis.disconnect();
  }
}

it('loses nothing, delivers nothing twice and archives everything once when a worker is SIGKILLed mid-run', async () => {
  const victim = startWorker();
  const random = fixtureRandom(7);
  const bodies = Array.from({ length: COUNT }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'crash' }));
  const ids = await postAllAccepted(running.platform.api.url, bodies, 400);

  // Kill it once it is visibly mid-run and archiving: some delivered and archived, most not.
  await waitFor(
    'the first worker to deliver and archive some',
    // ...and holding calls in flight (records in `sending`), so the kill interrupts some.
    async () => (await ledger()).deliveries >= 150 && (await historyCounts(running.historyUrl, ids)).rows >= 50 && (await sendingNow(ids)) >= 10,
    60_000,
    20,
  );
  await victim.kill();
  expect((await ledger()).deliveries).toBeLessThan(COUNT);

  startWorker();
  const views = await waitAllArchived(
    { redisUrl: running.platform.redis.url, historyUrl: running.historyUrl, store: running.store, tenant: TENANT },
    ids,
    150_000,
  );
  const summary = await ledger();
  const delivered = views.filter((v) => v.status === 'delivered').length;
  const recovered = views.filter((v) => v.attempts.some((a) => a.errorClass === 'worker-lost')).length;
  process.stdout.write(`worker crash with history: ${delivered}/${COUNT} delivered, ${recovered} reconciled, duplicates ${summary.duplicateKeys.length}\n`);

  expect(summary.duplicateKeys).toEqual([]);
  expect(delivered / COUNT).toBeGreaterThanOrEqual(0.99);
  expect(summary.deliveredKeys).toBeGreaterThanOrEqual(delivered);
  expect(recovered).toBeGreaterThan(0);
  for (const view of views) expectCompleteHistory(view);
  expect(await historyCounts(running.historyUrl, ids)).toEqual({ rows: COUNT, distinct: COUNT });
  expect(await redisLeft(running.platform.redis.url, ids)).toEqual({ fullRecords: 0, queued: 0 });
});
