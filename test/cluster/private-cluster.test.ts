import { Cluster } from 'ioredis';
import { CLUSTER_SLOTS, type PrivateRedisCluster } from '@notify/platform-kit';
import { startTestCluster } from './cluster-fixture';

/**
 * The harness's local Redis Cluster: 3 masters + 3 replicas on free loopback ports, joined as
 * redis-cli --cluster create joins them. The guard the partitioned design relies on is checked here: a
 * script whose keys live in two slots fails loudly (CROSSSLOT), so a script that touches more
 * than one partition can never pass silently against a cluster.
 */
let cluster: PrivateRedisCluster;
let client: Cluster;

beforeAll(async () => {
  // A short cluster-node-timeout: the failover below in ~2 s.
  cluster = await startTestCluster({ nodeTimeoutMs: 1_000 });
  client = new Cluster(
    cluster.nodes.map((n) => ({ host: n.host, port: n.port })),
    { redisOptions: { maxRetriesPerRequest: 2 } },
  );
  client.on('error', () => undefined);
});
afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
});

it('forms 3 masters with one replica each, every slot served', async () => {
  const masters = await cluster.masters();
  expect(masters).toHaveLength(3);
  expect(masters.reduce((a, m) => a + m.slotCount, 0)).toBe(CLUSTER_SLOTS);
  for (const master of masters) expect(master.replicas).toHaveLength(1);
  expect(cluster.nodesEnv.split(',')).toHaveLength(6);
});

it('lets ioredis Cluster write keys that land on every master', async () => {
  for (let i = 0; i < 300; i += 1) await client.set(`probe:{${i}}`, String(i));
  expect(await client.get('probe:{42}')).toBe('42');
  const keys = await cluster.masterKeys();
  expect(keys).toHaveLength(3);
  for (const master of keys) expect(master.keys).toBeGreaterThan(0);
});

it('fails a Lua script whose keys are in two slots with CROSSSLOT, and runs it when they share a hash tag', async () => {
  const script = "redis.call('SET', KEYS[1], ARGV[1]); redis.call('SET', KEYS[2], ARGV[1]); return 1";
  // {a} and {b} hash to different slots.
  expect(await client.cluster('KEYSLOT', 'x:{a}')).not.toBe(await client.cluster('KEYSLOT', 'x:{b}'));
  await expect(client.eval(script, 2, 'x:{a}', 'x:{b}', 'v')).rejects.toThrow(/CROSSSLOT/);
  expect(await client.eval(script, 2, 'x:{a}:1', 'x:{a}:2', 'v')).toBe(1);
});

it('promotes a replica when a master is SIGKILLed; the killed node comes back as a replica and keeps the data', async () => {
  // WAIT 1 on each master's connection (the one that wrote): every probe key is on a replica too.
  const acked = await Promise.all(client.nodes('master').map((node) => node.wait(1, 5_000)));
  expect(acked.every((n) => n >= 1)).toBe(true);
  const { killed, promoted } = await cluster.killMaster(0);
  expect(promoted).not.toBe(killed);
  // Acknowledged by a master and its replica before the kill: still there after it.
  expect(await client.get('probe:{42}')).toBe('42');
  await cluster.restart(killed);
  const masters = await cluster.masters();
  expect(masters.map((m) => m.port)).toContain(promoted);
  expect(masters.find((m) => m.port === promoted)?.replicas).toEqual([killed]);
});
