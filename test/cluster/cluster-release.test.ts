import request from 'supertest';
import { allPartitions, dueIndexKey, keySlot, partitionOfId, partitionTag, type NotificationView } from '@notify/core';
import { waitFor, type ClusterMaster } from '@notify/platform-kit';
import { createRedis, parseClusterNodes, type RedisClient } from '@notify/runtime';
import type { AppProcess } from '../harness/app-process';
import { postAllAccepted } from '../harness/batch-post';
import { ledgerDeliveries, mapLimited } from '../harness/ledger-keys';
import { TEST_API_KEY } from '../harness/platform';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { releasingWorkers } from '../schedule/release-fixture';
import { CLUSTER_PARTITIONS, accountFor, describeAccounting, readView, startClusterPlatform, waitAllTerminalViaApi } from './cluster-fixture';

/**
 * The releaser on a private Redis Cluster (3 masters + 3 replicas, PARTITIONS=16), in two worker
 * processes that split the partitions (WORKER_PARTITION_INDEX of 2): each releases the due indexes
 * of its own partitions, on their masters. Scheduled notifications of every partition are
 * released and delivered once each, never before their sendAt; a canceled one leaves its
 * partition's due index and is never sent. Then the master with the most entries still waiting is
 * SIGKILLed while a block due at one instant is being released: its replica is promoted, the
 * releasers go on. A record the promoted replica never received would be the only loss allowed
 * (told apart by reading every record after the failover); every one held ends delivered once.
 */
let platform: Awaited<ReturnType<typeof startClusterPlatform>>;
let redis: RedisClient;
let started = 0;
let releasing: AppProcess[] = [];
// Short locks and a sweeper on a longer fuse than one Redis's: 16 partitions a worker, and a
// step job lost with a master is still re-created within the test (production: 30 s / 60 s);
// a lane worker that stopped fetching after the failover is replaced after 3 s (production: 30 s).
const workers = releasingWorkers(() => ({
  ...platform.env,
  WORKER_PARTITION_INDEX: String(started++ % 2),
  WORKER_PARTITION_COUNT: '2',
  INTAKE_SWEEP_INTERVAL_MS: '1000',
  INTAKE_SWEEP_MIN_AGE_MS: '3000',
  LANE_WATCHDOG_IDLE_MS: '3000',
}));

beforeAll(async () => {
  // No permanent failures: every notification can end delivered. A failover in ~2 s.
  platform = await startClusterPlatform({ workerCount: 0, cluster: { nodeTimeoutMs: 1_000 }, simEnv: { SIM_PERMANENT_RATES: '0,0,0' } });
  redis = createRedis({ url: platform.redis.url, clusterNodes: parseClusterNodes(platform.cluster.nodesEnv) ?? [] }, 'producer');
  releasing = [workers.start(), workers.start()];
}, 180_000);
afterAll(async () => {
  await workers.killAll();
  redis?.disconnect();
  await platform?.stop();
}, 60_000);

const random = fixtureRandom(20261202);
const scheduled = (prefix: string, count: number, sendAt: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => ({ ...notificationFor(i, pickPreferred(random), { prefix, priority: 'reminder' }), sendAt: sendAt(i) }));
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
/** Due-index entries per partition. */
const dueCounts = () => Promise.all(allPartitions(CLUSTER_PARTITIONS).map((p) => redis.zcard(dueIndexKey(p))));
const sum = (counts: number[]) => counts.reduce((a, n) => a + n, 0);
const partitionSlot = (partition: number) => keySlot(`${partitionTag(partition)}:x`);
const ownsSlot = (master: ClusterMaster, slot: number) => master.slots.some(([a, b]) => slot >= a && slot <= b);

/** Nothing delivered before its sendAt: at the providers (their clock is this machine's, as Redis's is) and in the records. */
async function expectNoneEarly(ids: readonly string[], sendAt: ReadonlyMap<string, number>, views: readonly NotificationView[]): Promise<void> {
  const deliveries = await ledgerDeliveries(platform.sims.controlUrl, ids);
  expect(ids.filter((id, i) => deliveries[i]?.some((d) => d.at < (sendAt.get(id) as number)))).toEqual([]);
  for (const v of views) {
    const due = sendAt.get(v.id) as number;
    expect(v.releasedAt).toBeGreaterThanOrEqual(due);
    for (const attempt of v.attempts) expect(attempt.startedAt).toBeGreaterThanOrEqual(due);
  }
}

it('releases scheduled notifications of every partition once each, never early, and never one canceled', async () => {
  const COUNT = 320;
  const CANCELED = 20;
  // Four instants half a second apart; the last ones are canceled before they are due.
  const bodies = scheduled('cluster-release', COUNT, (i) => inMs(4_000 + (i % 4) * 500));
  const ids = await postAllAccepted(platform.api.url, bodies, 160);
  const sendAt = new Map(ids.map((id, i) => [id, Date.parse(bodies[i]!.sendAt)]));
  const toCancel = ids.filter((_, i) => i % 4 === 3).slice(0, CANCELED);
  const answers = await mapLimited(toCancel, 8, async (id) => {
    const res = await request(platform.api.url).delete(`/v1/notifications/${id}`).set('authorization', `Bearer ${TEST_API_KEY}`);
    return `${res.status} ${res.body.status}`;
  });
  expect(answers).toEqual(toCancel.map(() => '200 canceled'));
  const canceled = new Set(toCancel);
  const kept = ids.filter((id) => !canceled.has(id));

  // Spread over every partition (so over every master), each waiting in its partition's due index.
  const counts = await dueCounts();
  expect(new Set(ids.map((id) => partitionOfId(id, CLUSTER_PARTITIONS))).size).toBe(CLUSTER_PARTITIONS);
  expect(counts.every((n) => n > 0)).toBe(true);
  expect(sum(counts)).toBe(kept.length);
  const canceledScores = await Promise.all(toCancel.map((id) => redis.zscore(dueIndexKey(partitionOfId(id, CLUSTER_PARTITIONS)), id)));
  expect(canceledScores.filter((s) => s !== null)).toEqual([]);

  const views = await waitAllTerminalViaApi(platform.api.url, ids, 90_000);
  const account = await accountFor(platform, kept);
  const canceledDeliveries = (await ledgerDeliveries(platform.sims.controlUrl, toCancel)).filter((d) => d.length > 0).length;
  process.stdout.write(
    `cluster release: ${kept.length} scheduled over ${CLUSTER_PARTITIONS} partitions (due per partition ${counts.join(' ')}), ${CANCELED} canceled; ` +
      `${describeAccounting('released', account)}; canceled but delivered ${canceledDeliveries}\n`,
  );
  expect(account.duplicated).toEqual([]);
  expect(account.lost).toEqual([]);
  expect(account.stuck).toEqual([]);
  expect(account.deliveredOnce).toBe(kept.length);
  expect(canceledDeliveries).toBe(0);
  expect(views.filter((v) => canceled.has(v.id)).map((v) => v.status)).toEqual(toCancel.map(() => 'canceled'));
  await expectNoneEarly(
    kept,
    sendAt,
    views.filter((v) => !canceled.has(v.id)),
  );
  expect(sum(await dueCounts())).toBe(0);
});

it('loses, duplicates and sends early nothing the cluster still holds when a master is SIGKILLed during a release', async () => {
  const COUNT = 300;
  const bodies = scheduled('cluster-release-failover', COUNT, () => inMs(3_000));
  const ids = await postAllAccepted(platform.api.url, bodies, 150);
  const sendAt = new Map(ids.map((id, i) => [id, Date.parse(bodies[i]!.sendAt)]));
  expect(sum(await dueCounts())).toBe(COUNT);

  await waitFor('the release to begin', async () => sum(await dueCounts()) < COUNT, 30_000, 5);
  // The master with the most entries still waiting is the one killed (it stays down: nothing more is asked of it).
  const [counts, masters] = await Promise.all([dueCounts(), platform.cluster.masters()]);
  const waitingOn = masters.map((m) =>
    sum(
      allPartitions(CLUSTER_PARTITIONS)
        .filter((p) => ownsSlot(m, partitionSlot(p)))
        .map((p) => counts[p] as number),
    ),
  );
  const victim = waitingOn.indexOf(Math.max(...waitingOn));
  const { killed, promoted } = await platform.cluster.killMaster(victim);

  // What the cluster holds after the failover: a record gone is one the replica had not received.
  const afterFailover = await mapLimited(ids, 16, (id) => readView(platform.api.url, id));
  const held = ids.filter((_, i) => afterFailover[i] !== undefined);
  const views = await waitAllTerminalViaApi(platform.api.url, held, 90_000);
  const account = await accountFor(platform, held);
  const duplicatedAll = (await ledgerDeliveries(platform.sims.controlUrl, ids)).filter((d) => d.length > 1).length;
  process.stdout.write(
    `cluster release failover: master :${killed} SIGKILLed with ${waitingOn[victim]} of ${sum(counts)} waiting entries on its partitions, ` +
      `:${promoted} promoted; ${COUNT - held.length} records missing after it; ${describeAccounting('held', account)}\n`,
  );
  // The workers waited for the failover and went on, under the same processes.
  expect(releasing.map((w) => w.running)).toEqual([true, true]);
  expect(account.duplicated).toEqual([]);
  expect(duplicatedAll).toBe(0);
  expect(account.lost).toEqual([]);
  expect(account.stuck).toEqual([]);
  expect(account.deliveredOnce).toBe(held.length);
  expect(views.every((v) => v.status === 'delivered')).toBe(true);
  await expectNoneEarly(held, sendAt, views);
  expect(sum(await dueCounts())).toBe(0);
}, 180_000);
