import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import pino from 'pino';
import { archiveQueueKey, idempotencyBucketPrefix, notificationKey } from '@notify/core';
import { createHistoryMetrics } from '@notify/metrics';
import { openHistoryStore, type HistoryRecord, type HistoryStore } from '@notify/history';
import { Archiver, DEFAULT_ARCHIVER_CONFIG, createNotificationLookup, loadScripts, readNotification, type Scripts } from '@notify/pipeline';
import { startPrivateRedis, waitFor, type PrivatePostgres, type PrivateRedis } from '@notify/platform-kit';
import { seedTerminalNotifications } from '../../bench/history/redis-side';
import { freshDatabase, queryRows, startTestPostgres } from './postgres-fixture';

const TENANT = 'bench-redis-side'; // the seeding helper's tenant
const silent = pino({ level: 'silent' });
let postgres: PrivatePostgres;
let redisServer: PrivateRedis;
let redis: Redis;
let scripts: Scripts;
let store: HistoryStore;
let url: string;
let databases = 0;

beforeAll(async () => {
  [postgres, redisServer] = await Promise.all([startTestPostgres(), startPrivateRedis({ persistence: 'none' })]);
  redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
  scripts = loadScripts(redis, { archive: true });
});
beforeEach(async () => {
  await redis.flushdb();
  url = await freshDatabase(postgres, `archiver_${++databases}`);
  store = await openHistoryStore({ url, retentionDays: 30 });
});
afterEach(async () => {
  await store?.close();
});
afterAll(async () => {
  await redis?.quit();
  await redisServer?.stop();
  await postgres?.stop();
});

const archiver = (overrides: Partial<ConstructorParameters<typeof Archiver>[0]> = {}) =>
  new Archiver({
    redis,
    scripts,
    store,
    logger: silent,
    config: { ...DEFAULT_ARCHIVER_CONFIG, batchSize: 100, leaseMs: 300 },
    ...overrides,
  });
const rowCount = async () => Number((await queryRows<{ n: string }>(url, 'SELECT count(*) AS n FROM history_notifications'))[0]?.n);

describe('Archiver', () => {
  it('moves terminal records to the history with their attempts and skips; Redis keeps compact entries only', async () => {
    const ids = await seedTerminalNotifications(scripts, 250);
    const before = await Promise.all(ids.map((id) => readNotification(redis, TENANT, id)));
    const result = await archiver().drain();
    expect(result).toEqual({ claimed: 250, archived: 250, dropped: 0 });

    expect(await rowCount()).toBe(250);
    expect(await redis.zcard(archiveQueueKey())).toBe(0);
    expect(await redis.keys(`${notificationKey('')}*`)).toEqual([]);
    expect((await redis.keys(`${idempotencyBucketPrefix()}*`)).length).toBeGreaterThan(0);
    for (const [i, id] of ids.entries()) {
      // The history answers exactly what Redis answered before the move.
      expect(await store.get(TENANT, id)).toEqual(before[i]);
    }
    const failed = before.find((v) => v?.status === 'failed');
    expect(failed?.attempts).toMatchObject([{ channel: 'push', outcome: 'transient', errorClass: 'http-503' }]);
  });

  it('a crash between the commit and the compact repeats the idempotent insert: one row each, then compacted', async () => {
    const ids = await seedTerminalNotifications(scripts, 30);
    // The insert commits, then the archiver dies before compacting (here: the store call throws after it).
    const crashing = {
      insertBatch: async (records: readonly HistoryRecord[]) => {
        await store.insertBatch(records);
        throw new Error('archiver killed after the commit');
      },
    };
    await expect(archiver({ store: crashing }).archiveBatch()).rejects.toThrow('killed after the commit');
    expect(await rowCount()).toBe(30);
    expect(await redis.exists(notificationKey(ids[0] as string))).toBe(1); // still the full record
    expect(await readNotification(redis, TENANT, ids[0] as string)).toBeDefined();

    // Another archiver takes the batch once the lease ends, inserts again (nothing new) and compacts.
    const second = archiver();
    const done = await waitFor('the leased batch to be archived by a second archiver', async () => (await second.drain()).archived === 30, 10_000, 50);
    expect(done).toBe(true);
    expect(await rowCount()).toBe(30);
    expect(await redis.zcard(archiveQueueKey())).toBe(0);
    expect(await redis.exists(notificationKey(ids[0] as string))).toBe(0);
  });

  it('backs off while the store fails, counting failures; terminal records wait in Redis and are archived when it answers', async () => {
    const ids = await seedTerminalNotifications(scripts, 40);
    let down = true;
    let failures = 0;
    const flaky = {
      insertBatch: async (records: readonly HistoryRecord[]) => {
        if (down) {
          failures += 1;
          throw new Error('connect ECONNREFUSED 127.0.0.1:5433');
        }
        await store.insertBatch(records);
      },
    };
    const registry = new Registry();
    const metrics = createHistoryMetrics(registry, () => running.backlog());
    const running = archiver({
      store: flaky,
      metrics,
      config: { ...DEFAULT_ARCHIVER_CONFIG, batchSize: 100, leaseMs: 200, intervalMs: 20, maxBackoffMs: 200 },
    });
    running.start();
    try {
      const failuresCounted = async () => Number(/^notify_history_archive_failures_total (\d+)$/m.exec(await registry.metrics())?.[1]);
      await waitFor('a few failed passes, counted', async () => (await failuresCounted()) >= 3, 10_000, 20);
      expect(failures).toBeGreaterThanOrEqual(3);
      expect(await registry.metrics()).toMatch(/^notify_history_backlog 40$/m);
      expect(await readNotification(redis, TENANT, ids[5] as string)).toMatchObject({ id: ids[5] });
      down = false;
      await waitFor('the backlog archived after the store came back', async () => (await running.backlog()) === 0, 15_000, 50);
    } finally {
      await running.stop();
    }
    expect(await rowCount()).toBe(40);
    expect(await registry.metrics()).toMatch(/^notify_history_archived_total 40$/m);
  });

  it('drops queue entries whose record is gone (expired while waiting), archiving the rest', async () => {
    const ids = await seedTerminalNotifications(scripts, 5);
    await redis.del(notificationKey(ids[0] as string));
    await expect(archiver().drain()).resolves.toEqual({ claimed: 5, archived: 4, dropped: 1 });
    expect(await rowCount()).toBe(4);
    expect(await redis.zcard(archiveQueueKey())).toBe(0);
  });
});

describe('createNotificationLookup', () => {
  it("reads Redis while the record is there, the history after archival, and never another tenant's notification", async () => {
    const [id] = await seedTerminalNotifications(scripts, 1);
    const lookup = createNotificationLookup({ redis, history: store });
    const redisOnly = createNotificationLookup({ redis });
    const inRedis = await lookup.get(TENANT, id as string);
    expect(inRedis).toMatchObject({ id, status: 'delivered' });
    await archiver().drain();
    expect(await redisOnly.get(TENANT, id as string)).toBeUndefined();
    expect(await lookup.get(TENANT, id as string)).toEqual(inRedis);
    expect(await lookup.get('another-tenant', id as string)).toBeUndefined();
  });
});
