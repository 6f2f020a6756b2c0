import request from 'supertest';
import { readLedger, waitFor } from '@notify/platform-kit';
import { killableWorkers, type AppProcess } from '../harness/app-process';
import { postAllAccepted, postBatches } from '../harness/batch-post';
import { TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { expectCompleteHistory } from '../harness/view-assertions';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { accountFor, describeAccounting, startClusterPlatform, waitAllTerminalViaApi } from './cluster-fixture';

/**
 * The platform on a private Redis Cluster (3 masters + 3 replicas, PARTITIONS=16): the api in
 * this process, the workers as real processes (so one can be SIGKILLed). Delivery acceptance,
 * idempotency and the worker crash, as on one Redis; the keys spread over every master; the
 * suppression list paged across the partitions.
 */
let platform: TestPlatform;
const workers = killableWorkers(() => platform.env);
let firstWorker: AppProcess;

beforeAll(async () => {
  platform = await startClusterPlatform({ workerCount: 0, simEnv: { SIM_LATENCY_MS: '40' } });
  firstWorker = workers.start();
});
afterAll(async () => {
  await workers.killAll();
  await platform?.stop();
});

const ledger = () => readLedger(platform.sims.controlUrl);
const COUNT = 400;
const random = fixtureRandom(20261130);
const bodies = Array.from({ length: COUNT }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'cluster' }));
let ids: string[] = [];

it('delivers every notification exactly once, with their keys on every master', async () => {
  const accepted = await postBatches(platform.api.url, bodies, 200);
  expect(accepted.filter((r) => r.httpStatus === 202)).toHaveLength(COUNT);
  ids = accepted.map((r) => r.id);
  expect(new Set(ids).size).toBe(COUNT);

  const views = await waitAllTerminalViaApi(platform.api.url, ids, 120_000);
  const delivered = views.filter((v) => v.status === 'delivered').length;
  const account = await accountFor(platform, ids);
  process.stdout.write(`${describeAccounting('cluster acceptance', account)}\n`);
  expect(account.duplicated).toEqual([]);
  expect(account.lost).toEqual([]);
  expect(account.stuck).toEqual([]);
  // BI5/BI6 faults: a recipient whose every address fails permanently is failed, rightly.
  expect(delivered / COUNT).toBeGreaterThanOrEqual(0.99);
  expect(account.deliveredOnce).toBe(delivered);
  for (const view of views) expectCompleteHistory(view);

  const keys = await platform.cluster?.masterKeys();
  process.stdout.write(`cluster acceptance: keys per master ${keys?.map((k) => `:${k.port} ${k.keys}`).join(', ')}\n`);
  expect(keys).toHaveLength(3);
  for (const master of keys ?? []) expect(master.keys).toBeGreaterThan(0);
});

it('answers re-POSTs with the same ids and never delivers again; a changed payload is a 422', async () => {
  expect(ids).toHaveLength(COUNT);
  const before = await ledger();
  const again = await postBatches(platform.api.url, bodies, 200);
  expect(again.map((r) => r.id)).toEqual(ids);
  expect(again.every((r) => r.httpStatus === 200 && r.duplicate)).toBe(true);

  const single = await request(platform.api.url).post('/v1/notifications').set('authorization', `Bearer ${TEST_API_KEY}`).send(bodies[1]);
  expect(single.status).toBe(200);
  expect(single.body.id).toBe(ids[1]);

  const changed = await request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ ...(bodies[0] as object), content: { title: 'changed', body: 'payload' } });
  expect(changed.status).toBe(422);

  const after = await ledger();
  expect(after.deliveries).toBe(before.deliveries);
  expect(after.duplicateKeys).toEqual([]);
});

it('loses nothing and delivers nothing twice when a worker is SIGKILLed mid-run', async () => {
  const victim = firstWorker;
  const crashBodies = Array.from({ length: 800 }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'cluster-crash' }));
  const start = (await ledger()).deliveries;
  const crashIds = await postAllAccepted(platform.api.url, crashBodies, 400);

  await waitFor('the worker to deliver some', async () => (await ledger()).deliveries >= start + 100, 60_000, 20);
  await victim.kill();
  const atKill = (await ledger()).deliveries - start;
  expect(atKill).toBeLessThan(crashBodies.length);

  workers.start();
  const views = await waitAllTerminalViaApi(platform.api.url, crashIds, 120_000);
  const account = await accountFor(platform, crashIds);
  const recovered = views.filter((v) => v.attempts.some((a) => a.errorClass === 'worker-lost')).length;
  process.stdout.write(
    `${describeAccounting('cluster worker crash', account)}; ${atKill} delivered before SIGKILL, ${recovered} calls reconciled after the crash\n`,
  );
  expect(account.duplicated).toEqual([]);
  expect(account.lost).toEqual([]);
  expect(account.stuck).toEqual([]);
  expect(account.deliveredOnce / crashBodies.length).toBeGreaterThanOrEqual(0.99);
});

it("pages a tenant's suppression list across the partitions of the cluster, and lifts one", async () => {
  const auth = { authorization: `Bearer ${TEST_API_KEY}` };
  const recipients = Array.from({ length: 24 }, (_, i) => `cluster-sup-${i}`);
  for (const recipientId of recipients) {
    expect((await request(platform.api.url).post('/v1/suppressions').set(auth).send({ recipientId, channel: 'sms', reason: 'manual' })).status).toBe(201);
  }
  const listAll = async () => {
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await request(platform.api.url)
        .get('/v1/suppressions')
        .query({ channel: 'sms', limit: '5', ...(cursor ? { cursor } : {}) })
        .set(auth);
      expect(page.status).toBe(200);
      listed.push(...(page.body.items as { recipientId: string }[]).map((s) => s.recipientId));
      cursor = page.body.nextCursor as string | undefined;
    } while (cursor !== undefined);
    expect(new Set(listed).size).toBe(listed.length);
    // The runs above left the worker's own suppressions (simulated permanent failures) in the list too.
    return listed.filter((id) => id.startsWith('cluster-sup-')).sort();
  };
  expect(await listAll()).toEqual([...recipients].sort());
  expect((await request(platform.api.url).delete('/v1/suppressions/cluster-sup-0/sms').set(auth)).status).toBe(204);
  expect(await listAll()).toEqual(recipients.slice(1).sort());
});
