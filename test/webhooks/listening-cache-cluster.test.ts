import pino from 'pino';
import type { PrivateRedisCluster } from '@notify/platform-kit';
import { waitFor } from '@notify/platform-kit';
import { connectRedis, parseClusterNodes, type RedisClient } from '@notify/runtime';
import { ListeningEndpointsCache, WebhookRegistry } from '@notify/webhooks';
import { startTestCluster } from '../cluster/cluster-fixture';

/**
 * The endpoint cache on a Redis Cluster: its subscriber is the Cluster's duplicate (ioredis picks
 * a node), and a registry write's PUBLISH, run on the webhooks' slot's master, reaches it.
 */
const logger = pino({ level: 'silent' });
let cluster: PrivateRedisCluster;
let redis: RedisClient;

beforeAll(async () => {
  cluster = await startTestCluster({ replicasPerMaster: 0 });
  redis = await connectRedis({ url: '', clusterNodes: parseClusterNodes(cluster.nodesEnv) ?? [] }, 'worker', { requireDurable: false });
});
afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

it('keeps a list and hears every write to it, on a Cluster', async () => {
  const registry = new WebhookRegistry(redis);
  let reads = 0;
  const cache = new ListeningEndpointsCache({ redis, logger, ttlMs: 60_000, load: (tenant) => (reads++, registry.list(tenant)) });
  try {
    cache.start();
    await waitFor('the cache subscribed', () => cache.active, 20_000);
    await expect(cache.list('tenant-c')).resolves.toEqual([]);
    await expect(cache.list('tenant-c')).resolves.toEqual([]);
    expect(reads).toBe(1);
    const created = await registry.create('tenant-c', { url: 'http://127.0.0.1:9/hook', events: ['notification.failed'] }, 10);
    if (created === 'limit') throw new Error('limit');
    await waitFor('the created endpoint listed', async () => (await cache.list('tenant-c')).length === 1);
    await registry.delete('tenant-c', created.endpoint.id);
    await waitFor('the endpoint gone', async () => (await cache.list('tenant-c')).length === 0);
  } finally {
    await cache.close();
  }
});
