import request from 'supertest';
import { openHistoryStore, type HistoryStore } from '@notify/history';
import { waitFor, type PrivatePostgres } from '@notify/platform-kit';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { spawnApp, type AppProcess } from '../harness/app-process';
import { postAllAccepted } from '../harness/batch-post';
import { archiveQueueState, crashPostgres, freezePostgres, historyCounts, historyEnv, redisLeft, stopPostgres, waitAllArchived } from './archiver-fixture';
import { freshDatabase, startTestPostgres } from './postgres-fixture';

/**
 * PostgreSQL down: the real pipeline (api + a worker with its archiver, in-process)
 * on a private Redis and a private PostgreSQL. PostgreSQL stops mid-run; delivery goes on, the
 * terminal records wait in Redis as full records (status still served), the backlog and the
 * failures show on /metrics; when PostgreSQL returns every accepted notification is in the
 * history exactly once and Redis holds only compact entries. Then PostgreSQL crashes (SIGKILL)
 * under worker processes whose archivers hold a batch in flight, twice (the second crash meets
 * processes that already recovered from one): the processes live on, deliver meanwhile, and
 * archive everything once it is back.
 */
const TENANT = 'tenant-a';
const BEFORE = 150;
const DURING = 250;
let postgres: PrivatePostgres;
let historyUrl: string;
let platform: TestPlatform;
let store: HistoryStore | undefined;
const workers: AppProcess[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  historyUrl = await freshDatabase(postgres, 'pg_down');
  platform = await startTestPlatform({ workerCount: 1, env: historyEnv(historyUrl) });
});
afterAll(async () => {
  for (const worker of workers) await worker.kill();
  await store?.close();
  await platform?.stop();
  await postgres?.stop();
});

const random = fixtureRandom(1212);
const bodies = Array.from({ length: BEFORE + DURING }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'pg-down' }));

async function post(items: unknown[]): Promise<{ httpStatus: number; id: string; status: string; duplicate: boolean }[]> {
  const res = await request(platform.api.url).post('/v1/notifications/batch').set('authorization', `Bearer ${TEST_API_KEY}`).send({ notifications: items });
  expect(res.status).toBe(200);
  return res.body.results;
}

const metric = async (name: string): Promise<number> => {
  const text = await (await fetch(platform.workers[0]!.metricsUrl)).text();
  return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
};

it('keeps delivering while PostgreSQL is down and loses nothing when it returns', async () => {
  const first = await post(bodies.slice(0, BEFORE));
  expect(first.every((r) => r.httpStatus === 202)).toBe(true);
  const firstIds = first.map((r) => r.id);
  store = await openHistoryStore({ url: historyUrl, retentionDays: 30 });
  await waitAllArchived({ redisUrl: platform.redis.url, historyUrl, store, tenant: TENANT }, firstIds);
  await store.close();
  store = undefined;

  await stopPostgres(postgres);
  const second = await post(bodies.slice(BEFORE));
  expect(second.every((r) => r.httpStatus === 202)).toBe(true);
  const secondIds = second.map((r) => r.id);
  // Delivery goes on: every one reaches a terminal state, as a full record in Redis.
  const views = await waitAllTerminal(platform.redis.url, secondIds, 120_000);
  expect(views.filter((v) => v.status === 'delivered').length / DURING).toBeGreaterThanOrEqual(0.95);
  // Status is still served (from Redis), complete.
  const status = await request(platform.api.url).get(`/v1/notifications/${secondIds[0]}`).set('authorization', `Bearer ${TEST_API_KEY}`);
  expect(status.status).toBe(200);
  expect(status.body).toEqual(views[0]);
  // The outage shows: the backlog holds the waiting ones, the failed batches are counted.
  const outage = async () => ({ backlog: await metric('notify_history_backlog'), failures: await metric('notify_history_archive_failures_total') });
  await waitFor(
    'the backlog and the archive failures on /metrics',
    async () => {
      const seen = await outage();
      return seen.backlog === DURING && seen.failures >= 1;
    },
    30_000,
    200,
  );
  expect((await redisLeft(platform.redis.url, secondIds)).fullRecords).toBe(DURING);

  await postgres.restart();
  store = await openHistoryStore({ url: historyUrl, retentionDays: 30 });
  const allIds = [...firstIds, ...secondIds];
  const archived = await waitAllArchived({ redisUrl: platform.redis.url, historyUrl, store, tenant: TENANT }, allIds);
  expect(await historyCounts(historyUrl, allIds)).toEqual({ rows: BEFORE + DURING, distinct: BEFORE + DURING });
  expect(await redisLeft(platform.redis.url, allIds)).toEqual({ fullRecords: 0, queued: 0 });
  // What the history holds is what Redis served during the outage.
  expect(archived.slice(BEFORE)).toEqual(views);
  await waitFor('the backlog back to 0 on /metrics', async () => (await metric('notify_history_backlog')) === 0, 30_000, 200);

  // Idempotency across the move: the same events answer 200 with their final status, a changed payload 422.
  const again = await post(bodies.slice(BEFORE, BEFORE + 50));
  expect(again.map((r) => [r.httpStatus, r.duplicate, r.status])).toEqual(views.slice(0, 50).map((v) => [200, true, v.status]));
  const changed = await request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ ...(bodies[BEFORE] as object), content: { title: 'changed', body: 'payload' } });
  expect(changed.status).toBe(422);
  expect((await redisLeft(platform.redis.url, allIds)).fullRecords).toBe(0);
});

it('worker processes survive PostgreSQL killed (SIGKILL) under in-flight archive batches, twice, keep delivering and archive everything after', async () => {
  // Only the worker processes deliver and archive from here (small batches: several per crash);
  // they boot while the in-process worker closes (nothing is queued until then).
  for (let i = 0; i < 2; i += 1) workers.push(spawnApp('worker', { ...platform.env, ARCHIVER_BATCH_SIZE: '20', LOG_LEVEL: 'info' }));
  await platform.workers[0]!.close();
  const pids = workers.map((w) => w.process.pid);
  // A worker that dies fails the test at once, with its last words.
  const died = Promise.race(workers.map((w) => w.exited.then((exit) => ({ worker: w, exit })))).then(({ worker, exit }) => {
    throw new Error(`a worker exited (${exit.signal ?? exit.code}):\n${worker.output().slice(-2_000)}`);
  });
  died.catch(() => undefined);
  const unlessDied = <T>(work: Promise<T>): Promise<T> => Promise.race([work, died]);
  const PER_CRASH = 150;
  const all: string[] = [];
  const bodiesOf = (crash: number) => Array.from({ length: PER_CRASH }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: `pg-kill-${crash}` }));

  // A first set archived while PostgreSQL is up: each archiver's store is open, its pool warm.
  const warm = await postAllAccepted(platform.api.url, bodiesOf(0), PER_CRASH);
  all.push(...warm);
  store = await openHistoryStore({ url: historyUrl, retentionDays: 30 });
  await unlessDied(waitAllArchived({ redisUrl: platform.redis.url, historyUrl, store, tenant: TENANT }, all));
  await store.close();
  store = undefined;

  for (let crash = 1; crash <= 2; crash += 1) {
    // Frozen first, so that the archivers' next batches hang in PostgreSQL with their clients checked out.
    freezePostgres(postgres);
    const ids = await postAllAccepted(platform.api.url, bodiesOf(crash), PER_CRASH);
    all.push(...ids);
    // Delivery does not wait for the history.
    await unlessDied(waitAllTerminal(platform.redis.url, ids, 120_000));
    // Every archiver busy: a batch claimed (in flight) and an id left unclaimed for ten archive intervals.
    await waitFor(
      `crash ${crash}: every archiver holding a batch in flight`,
      async () => {
        const queue = await archiveQueueState(platform.redis.url);
        return queue.claimed > 0 && (queue.oldestUnclaimedAgeMs ?? 0) > 10 * Number(platform.env.ARCHIVER_INTERVAL_MS);
      },
      60_000,
      100,
    );
    // The crash: every backend and the postmaster die at once; the checked-out clients lose their server.
    await crashPostgres(postgres);
    await postgres.restart();
    store = await openHistoryStore({ url: historyUrl, retentionDays: 30 });
    await unlessDied(waitAllArchived({ redisUrl: platform.redis.url, historyUrl, store, tenant: TENANT }, all, 120_000));
    await store.close();
    store = undefined;
    expect({ crash, running: workers.map((w) => w.running), pids: workers.map((w) => w.process.pid) }).toEqual({
      crash,
      running: [true, true],
      pids,
    });
  }
  expect(await historyCounts(historyUrl, all)).toEqual({ rows: all.length, distinct: all.length });
  expect(await redisLeft(platform.redis.url, all)).toEqual({ fullRecords: 0, queued: 0 });
  // Each process met the outage (its archiver failed and retried) and none died of it.
  for (const worker of workers) {
    expect(worker.output()).toContain('archive batch failed');
    expect(worker.output()).not.toMatch(/Unhandled 'error' event|Emitted 'error' event/);
  }
}, 400_000);
