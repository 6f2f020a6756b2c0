import pino from 'pino';
import type { Redis } from 'ioredis';
import { notificationKey } from '@notify/core';
import { startPrivateRedis, waitFor, type PrivateRedis } from '@notify/platform-kit';
import { connectRedis } from '@notify/runtime';
import {
  DEFAULT_WEBHOOK_CONFIG,
  ListeningEndpointsCache,
  WEBHOOK_ENDPOINTS_CHANGED_CHANNEL,
  WebhookRegistry,
  createWebhookService,
  webhookTenantKey,
  type WebhookEndpoint,
} from '@notify/webhooks';

/**
 * The step hook's cache of tenants' endpoint lists (listening-cache.ts) on a private Redis: a
 * kept list costs no command, every registry write reaches it by pub/sub, a read racing an
 * invalidation is not kept, a lost subscription bypasses and a new one empties it, the TTL and
 * the cap hold.
 */
const logger = pino({ level: 'silent' });
const HOOK = { url: 'http://127.0.0.1:9/hook', events: ['notification.delivered' as const] };

let server: PrivateRedis;
let redis: Redis;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startPrivateRedis();
  redis = await connectRedis(server.url, 'worker', { requireDurable: false });
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

let tenants = 0;
const newTenant = () => `tenant-${Date.now()}-${++tenants}`;

/** A cache over the registry whose reads are counted (and may be held by `gate`). */
async function startCache(options: { ttlMs?: number; maxTenants?: number; now?: () => number } = {}) {
  const registry = new WebhookRegistry(redis);
  const loads: string[] = [];
  let gate: Promise<void> | undefined;
  const cache = new ListeningEndpointsCache({
    redis,
    logger,
    ttlMs: options.ttlMs ?? 60_000,
    ...(options.maxTenants !== undefined ? { maxTenants: options.maxTenants } : {}),
    ...(options.now ? { now: options.now } : {}),
    load: async (tenant) => {
      loads.push(tenant);
      const endpoints = await registry.list(tenant);
      if (gate) await gate;
      return endpoints;
    },
  });
  closers.push(() => cache.close());
  cache.start();
  await waitFor('the cache subscribed', () => cache.active);
  const hold = (until: Promise<void>): void => {
    gate = until;
  };
  const release = (): void => {
    gate = undefined;
  };
  return { cache, registry, loads, hold, release };
}

/** Every command the server ran since the last RESETSTAT, but the test's own INFO/CONFIG. */
async function commandsRun(): Promise<Record<string, number>> {
  const info = await redis.info('commandstats');
  const calls: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    const name = match[1] as string;
    if (!['info', 'config'].includes(name) && !name.startsWith('config|')) calls[name] = Number(match[2]);
  }
  return calls;
}

const ids = (list: readonly WebhookEndpoint[]) => list.map((e) => e.id);

it('a kept list answers without a Redis command; the step hook with a tenant given costs none', async () => {
  const { cache } = await startCache();
  const tenant = newTenant();
  await expect(cache.list(tenant)).resolves.toEqual([]);
  await redis.config('RESETSTAT');
  for (let i = 0; i < 5; i++) await expect(cache.list(tenant)).resolves.toEqual([]);
  expect(await commandsRun()).toEqual({});

  // The hook itself, as the worker builds it: a notification of a tenant with no endpoint.
  const service = createWebhookService({ redis, config: { ...DEFAULT_WEBHOOK_CONFIG, endpointCacheMs: 60_000 }, logger });
  closers.push(() => service.close());
  const hook = service.publisher.stepEvents();
  await waitFor('the hook cache subscribed', () => service.cache.active);
  await hook.publish({ type: 'notification.delivered', notificationId: 'n-absent', tenant }); // fills the cache
  await redis.config('RESETSTAT');
  await hook.publish({ type: 'notification.delivered', notificationId: 'n-absent', tenant });
  await hook.publish({ type: 'attempt.failed', notificationId: 'n-absent', step: 1, tenant });
  expect(await commandsRun()).toEqual({});
  // Without a tenant the hook reads it from the record (here absent: nothing more).
  await hook.publish({ type: 'notification.delivered', notificationId: 'n-absent' });
  expect(Object.keys(await commandsRun())).toEqual(['hget']);
});

it('every write to a tenant endpoints reaches a kept list: create, rotate, disable, delete', async () => {
  const { cache, registry, loads } = await startCache();
  const tenant = newTenant();
  await expect(cache.list(tenant)).resolves.toEqual([]);

  const created = await registry.create(tenant, HOOK, 10);
  if (created === 'limit') throw new Error('limit');
  const id = created.endpoint.id;
  await waitFor('the created endpoint listed', async () => ids(await cache.list(tenant)).includes(id));

  const rotated = await registry.rotate(tenant, id, 60_000);
  await waitFor('the rotated secret listed', async () => (await cache.list(tenant))[0]?.secret === rotated?.secret);

  await registry.disable(id, 'test');
  await waitFor('the endpoint listed disabled', async () => (await cache.list(tenant))[0]?.disabled === true);

  await registry.delete(tenant, id);
  await waitFor('the endpoint gone', async () => (await cache.list(tenant)).length === 0);
  // Each change cost one read more, no more: between them the list was kept.
  const before = loads.length;
  await cache.list(tenant);
  expect(loads.length).toBe(before);
});

it('another tenant invalidation leaves a kept list kept', async () => {
  const { cache, registry, loads } = await startCache();
  const [quiet, busy] = [newTenant(), newTenant()];
  await cache.list(quiet);
  await registry.create(busy, HOOK, 10);
  await waitFor('the invalidation heard', async () => (await cache.list(busy)).length === 1);
  const before = loads.length;
  await cache.list(quiet);
  expect(loads.length).toBe(before);
});

it('a read that began before an invalidation arrived is answered but not kept', async () => {
  const { cache, registry, loads, hold, release } = await startCache();
  const tenant = newTenant();
  let open!: () => void;
  hold(new Promise<void>((resolve) => (open = resolve)));
  const racing = cache.list(tenant); // reads [] and waits at the gate
  await waitFor('the read begun', () => loads.length === 1);
  const subscriber = await connectRedis(server.url, 'worker', { requireDurable: false });
  closers.push(async () => subscriber.disconnect());
  const heard = new Promise<void>((resolve) => subscriber.on('message', () => resolve()));
  await subscriber.subscribe(WEBHOOK_ENDPOINTS_CHANGED_CHANNEL);
  await registry.create(tenant, HOOK, 10);
  await heard;
  await new Promise((resolve) => setTimeout(resolve, 50)); // the cache's own subscriber hears it too
  release();
  open();
  await expect(racing).resolves.toEqual([]); // what was read: stale, so not kept
  await expect(cache.list(tenant)).resolves.toHaveLength(1);
  expect(loads.length).toBe(2);
});

it('a lost subscription bypasses the cache, and the next one starts it empty', async () => {
  const { cache, loads } = await startCache();
  const tenant = newTenant();
  await expect(cache.list(tenant)).resolves.toEqual([]);
  // A write no message announces (as one missed while the subscriber was away would be).
  const id = 'ep_000000000000000000000001';
  await redis.sadd(webhookTenantKey(tenant), id);
  await redis.hset(`{notify:webhooks}:ep:${id}`, {
    id,
    tenant,
    url: HOOK.url,
    events: JSON.stringify(HOOK.events),
    createdAt: '1',
    disabled: '0',
    secret: 's',
  });
  await expect(cache.list(tenant)).resolves.toEqual([]); // kept, as expected without a message

  await redis.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
  await waitFor('the subscription lost', () => !cache.active, 5_000, 1);
  await expect(cache.list(tenant)).resolves.toHaveLength(1); // bypassed: read
  await waitFor('subscribed again', () => cache.active, 10_000);
  expect(cache.size).toBe(0);
  const before = loads.length;
  await expect(cache.list(tenant)).resolves.toHaveLength(1);
  await expect(cache.list(tenant)).resolves.toHaveLength(1);
  expect(loads.length).toBe(before + 1);
});

it('a kept list expires after the TTL', async () => {
  let clock = 1_000_000;
  const { cache, loads } = await startCache({ ttlMs: 5_000, now: () => clock });
  const tenant = newTenant();
  await cache.list(tenant);
  clock += 4_999;
  await cache.list(tenant);
  expect(loads.length).toBe(1);
  clock += 1;
  await cache.list(tenant);
  expect(loads.length).toBe(2);
});

it('keeps at most maxTenants lists, the oldest stored going first', async () => {
  const { cache, loads } = await startCache({ maxTenants: 3 });
  const t = [newTenant(), newTenant(), newTenant(), newTenant()];
  for (const tenant of t) await cache.list(tenant);
  expect(cache.size).toBe(3);
  loads.length = 0;
  await cache.list(t[3] as string);
  await cache.list(t[1] as string);
  expect(loads).toEqual([]);
  await cache.list(t[0] as string); // evicted: read again
  expect(loads).toEqual([t[0]]);
});

it('a TTL of 0 keeps nothing and opens no subscriber', async () => {
  const registry = new WebhookRegistry(redis);
  let reads = 0;
  const cache = new ListeningEndpointsCache({ redis, logger, ttlMs: 0, load: (tenant) => (reads++, registry.list(tenant)) });
  closers.push(() => cache.close());
  cache.start();
  const tenant = newTenant();
  await cache.list(tenant);
  await cache.list(tenant);
  expect(reads).toBe(2);
  expect(cache.active).toBe(false);
  // (The earlier tests' subscribers are closed; the server may take a moment to drop them.)
  await waitFor('no subscriber', async () => (await redis.pubsub('NUMSUB', WEBHOOK_ENDPOINTS_CHANGED_CHANNEL))[1] === 0, 2_000);
});

it('the step hook with endpoints: a notification of a tenant that listens is enqueued as before', async () => {
  const service = createWebhookService({ redis, config: { ...DEFAULT_WEBHOOK_CONFIG, endpointCacheMs: 60_000 }, logger });
  closers.push(() => service.close());
  const hook = service.publisher.stepEvents();
  const tenant = newTenant();
  const id = `n-${Date.now()}`;
  await redis.hset(notificationKey(id, 0), {
    id,
    tenant,
    eventId: 'e',
    recipientId: 'r',
    priority: 'urgent',
    status: 'delivered',
    acceptedAt: '1',
    plan: '["push"]',
  });
  await waitFor('subscribed', () => service.cache.active);
  await hook.publish({ type: 'notification.delivered', notificationId: id, tenant }); // no endpoint yet: kept as []
  const created = await service.registry.create(tenant, HOOK, 10);
  if (created === 'limit') throw new Error('limit');
  await waitFor('the event enqueued', async () => {
    await hook.publish({ type: 'notification.delivered', notificationId: id, tenant });
    return ((await service.queue.getJobCounts('waiting')).waiting ?? 0) > 0;
  });
  const [job] = await service.queue.getJobs(['waiting']);
  expect(job?.data).toMatchObject({ tenant, endpointId: created.endpoint.id, event: { type: 'notification.delivered', data: { id } } });
});
