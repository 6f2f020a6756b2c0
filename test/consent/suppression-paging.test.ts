import { Redis } from 'ioredis';
import { partitionOfRecipient, recipientHash, suppressionKey } from '@notify/core';
import { startPrivateRedis, type PrivateRedis } from '@notify/platform-kit';
import { SuppressionStore, type SuppressionPage } from '@notify/pipeline';

/**
 * The suppression list's paging on a real Redis with three partitions: entries that share an
 * expiry (added in the same millisecond) are each listed once whatever the page size, entries
 * whose key is gone are dropped without hiding the ones after them, and expired ones are not
 * listed.
 */
const PARTITIONS = 3;
const NOW = Date.UTC(2026, 11, 1);
let server: PrivateRedis;
let redis: Redis;
let store: SuppressionStore;

beforeAll(async () => {
  server = await startPrivateRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  store = new SuppressionStore(redis, PARTITIONS);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

async function listAll(tenant: string, limit: number, now = NOW): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page: SuppressionPage = await store.list(tenant, { limit, ...(cursor ? { cursor } : {}) }, now);
    ids.push(...page.items.map((i) => i.recipientId ?? '?'));
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { ids, pages };
}

it('lists every entry once when many share one expiry, at every page size', async () => {
  const ids = Array.from({ length: 30 }, (_, i) => `same-ms-${i}`);
  for (const id of ids) await store.add('tenant-ties', id, 'email', 'manual', 3_600, NOW);
  for (const limit of [1, 2, 7, 30, 100]) {
    const listed = await listAll('tenant-ties', limit);
    expect([...listed.ids].sort()).toEqual([...ids].sort());
    expect(listed.pages).toBe(Math.max(1, Math.ceil(ids.length / limit)));
  }
});

it('drops entries whose key is gone without skipping the ones behind them, and leaves out expired ones', async () => {
  const ids = Array.from({ length: 12 }, (_, i) => `stale-${i}`);
  for (const id of ids) await store.add('tenant-stale', id, 'sms', 'bounce', 3_600, NOW);
  // Keys removed behind the index's back (as an older version's lift did).
  const gone = ids.slice(0, 5);
  for (const id of gone) {
    const rh = recipientHash('tenant-stale', id);
    await redis.del(suppressionKey(rh, 'sms', partitionOfRecipient(rh, PARTITIONS)));
  }
  await store.add('tenant-stale', 'short', 'sms', 'manual', 60, NOW);
  expect([...(await listAll('tenant-stale', 2)).ids].sort()).toEqual([...ids.slice(5), 'short'].sort());
  // A minute later the short one has expired.
  expect([...(await listAll('tenant-stale', 100, NOW + 61_000)).ids].sort()).toEqual([...ids.slice(5)].sort());
});
