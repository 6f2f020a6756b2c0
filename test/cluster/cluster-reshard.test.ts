import { allPartitions, keySlot, partitionTag } from '@notify/core';
import { waitFor, type ClusterMaster } from '@notify/platform-kit';
import { TEST_API_KEY } from '../harness/platform';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { CLUSTER_PARTITIONS, describeAccounting, settleAndAccount, startClusterPlatform } from './cluster-fixture';

/**
 * Resharding under load (docs/partitions.md): while notifications are POSTed and delivered, slots move
 * between masters twice — `redis-cli --cluster reshard` of the first master's lowest slots up to
 * one partition's hash tag and 64 more from the first master to the second, then the slot of a partition on the
 * third master moved to the first key by key (SETSLOT IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE).
 * Clients follow ASK/MOVED; a multi-key script on a slot half moved gets TRYAGAIN and is retried.
 * At the providers' side: nothing lost, nothing delivered twice, nothing stuck; intake answered
 * every POST 202 (or 503, retried until 202/200).
 */
let platform: Awaited<ReturnType<typeof startClusterPlatform>>;

beforeAll(async () => {
  platform = await startClusterPlatform({ workerCount: 1, simEnv: { SIM_LATENCY_MS: '40' } });
});
afterAll(async () => {
  await platform?.stop();
});

const random = fixtureRandom(20261201);
/** Every partition's tag slot. */
const PARTITION_SLOTS = allPartitions(CLUSTER_PARTITIONS).map((p) => ({ partition: p, slot: keySlot(`${partitionTag(p)}:x`) }));
const ownerOf = (masters: ClusterMaster[], slot: number) => masters.find((m) => m.slots.some(([a, b]) => slot >= a && slot <= b))?.port;

interface Load {
  ids: string[];
  /** Intake answers by status (a 503 is retried with the same body). */
  answers: Map<number, number>;
  /** Bodies that never got a 202/200 within their retries. */
  gaveUp: number;
  stop(): void;
  done: Promise<void>;
}

/** POSTs one notification, retrying a 503 (the idempotency key makes a retry safe); the id, or undefined after 60 tries. */
async function postUntilAccepted(body: unknown, answers: Map<number, number>): Promise<string | undefined> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const res = await fetch(`${platform.api.url}/v1/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
    const reply = (await res.json()) as { id?: string };
    if (res.status === 202 || res.status === 200) return reply.id;
    if (res.status !== 503) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** Offers notifications at about `perSecond` (4 senders) until stopped, and at most `max`. */
function startLoad(perSecond: number, max: number): Load {
  const load: Load = { ids: [], answers: new Map(), gaveUp: 0, stop: () => undefined, done: Promise.resolve() };
  let stopped = false;
  let next = 0;
  load.stop = () => {
    stopped = true;
  };
  const senders = 4;
  const sender = async () => {
    while (!stopped && next < max) {
      const index = next++;
      const started = Date.now();
      const id = await postUntilAccepted(notificationFor(index, pickPreferred(random), { prefix: 'reshard' }), load.answers);
      if (id) load.ids.push(id);
      else load.gaveUp += 1;
      // Pacing, not waiting for a condition: each sender offers perSecond / senders a second.
      const pause = (1_000 * senders) / perSecond - (Date.now() - started);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  load.done = Promise.all(Array.from({ length: senders }, sender)).then(() => undefined);
  return load;
}

it('moves slots with redis-cli --cluster reshard and key by key under load: 0 lost, 0 duplicated, 0 stuck', async () => {
  const cluster = platform.cluster;
  const before = await cluster.masters();
  expect(before).toHaveLength(3);
  const [first, second, third] = before as [ClusterMaster, ClusterMaster, ClusterMaster];

  const load = startLoad(60, 2_000);
  try {
    await waitFor('50 notifications accepted before the first move', () => load.ids.length >= 50, 60_000, 50);

    // 1. redis-cli --cluster reshard: the first master's lowest slots, up to its first partition's tag slot and 64 more (redis-cli moves a master's lowest slots first).
    const start = first.slots[0]?.[0] ?? 0;
    const firstTag = Math.min(...PARTITION_SLOTS.filter(({ slot }) => ownerOf(before, slot) === first.port).map(({ slot }) => slot));
    const slots = firstTag - start + 1 + 64;
    let started = Date.now();
    const output = await cluster.reshard({ from: first.port, to: second.port, slots });
    const cliMs = Date.now() - started;
    expect(output).toMatch(/Moving slot/);
    const afterReshard = await cluster.masters();
    const movedByCli = PARTITION_SLOTS.filter(({ slot }) => ownerOf(before, slot) === first.port && ownerOf(afterReshard, slot) === second.port);
    expect(movedByCli.length).toBeGreaterThanOrEqual(1);

    // 2. Key by key: the slot of a partition on the third master, to the first.
    await waitFor('50 more notifications accepted before the second move', () => load.ids.length >= 100, 60_000, 50);
    const partition = PARTITION_SLOTS.find(({ slot }) => ownerOf(afterReshard, slot) === third.port);
    if (!partition) throw new Error('no partition on the third master');
    started = Date.now();
    const moved = await cluster.moveSlots([partition.slot], first.port);
    const keyByKeyMs = Date.now() - started;
    expect(moved.slots).toBe(1);
    expect(moved.keys).toBeGreaterThan(0);
    expect(ownerOf(await cluster.masters(), partition.slot)).toBe(first.port);

    await waitFor('50 more notifications accepted after the moves', () => load.ids.length >= 150, 60_000, 50);
    process.stdout.write(
      `reshard: redis-cli moved ${slots} slots with partitions ${movedByCli.map((p) => p.partition).join(',')} (:${first.port} -> :${second.port}) in ${cliMs} ms; ` +
        `partition ${partition.partition} moved key by key (${moved.keys} keys, :${third.port} -> :${first.port}) in ${keyByKeyMs} ms\n`,
    );
  } finally {
    load.stop();
    await load.done;
  }

  const answers = [...load.answers.entries()].sort(([a], [b]) => a - b);
  const account = await settleAndAccount(platform, load.ids, 60_000);
  process.stdout.write(`${describeAccounting('reshard under load', account)}; intake answers ${answers.map(([s, n]) => `${s}: ${n}`).join(', ')}\n`);
  expect(load.gaveUp).toBe(0);
  expect(answers.filter(([status]) => ![200, 202, 503].includes(status))).toEqual([]);
  expect(new Set(load.ids).size).toBe(load.ids.length);
  expect(account.duplicated).toEqual([]);
  expect(account.lost).toEqual([]);
  expect(account.stuck).toEqual([]);
  // BI5/BI6 faults: a recipient whose every address fails permanently is failed, rightly.
  expect(account.deliveredOnce / account.accepted).toBeGreaterThanOrEqual(0.99);
  // The cluster is consistent afterwards: no slot left open, every slot covered.
  await expect(cluster.cli(['check', cluster.nodesEnv.split(',')[0] as string])).resolves.toMatch(/All 16384 slots covered/);
}, 300_000);
