import request from 'supertest';
import { checkPartitionCount, createRedis, recordedPartitionCount, waitUntilReady } from '@notify/runtime';
import { readViews, waitUntilTerminal } from '../../apps/chaos/src/scenario/outcomes';
import { notificationKey, partitionOfRecipient, partitionTag, recipientHash, recipientKey } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/** PARTITIONS=4 on one private Redis: other hash tags, the same server; intake, stored profiles and delivery work per partition. */
const PARTITIONS = 4;
const TENANT_KEY = TEST_API_KEY;

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ env: { PARTITIONS: String(PARTITIONS) } });
});
afterAll(async () => {
  await platform?.stop();
});

const auth = (r: request.Test) => r.set('authorization', `Bearer ${TENANT_KEY}`);

/** Recipient ids whose partitions cover all four. */
function recipientsCoveringEveryPartition(tenant: string): string[] {
  const chosen = new Map<number, string>();
  for (let i = 0; chosen.size < PARTITIONS; i += 1) {
    const id = `user-${i}`;
    const p = partitionOfRecipient(recipientHash(tenant, id), PARTITIONS);
    if (!chosen.has(p)) chosen.set(p, id);
  }
  return [...chosen.values()];
}

it('accepts, stores and delivers notifications of every partition, each under its own tag', async () => {
  const redis = createRedis(platform.redis.url, 'producer');
  await waitUntilReady(redis);
  try {
    const tenantName = 'tenant-a'; // TEST_API_KEY's tenant
    const recipients = recipientsCoveringEveryPartition(tenantName);
    // One recipient uses a stored profile (recipient store + intake read it from its partition).
    const stored = recipients[0] as string;
    expect((await auth(request(platform.api.url).put(`/v1/recipients/${stored}`)).send({ addresses: { email: 'stored@example.com' } })).status).toBe(201);
    const ids: string[] = [];
    for (const [i, recipient] of recipients.entries()) {
      const body = {
        eventId: `partitioned-${i}`,
        priority: 'urgent',
        recipient: recipient === stored ? { id: recipient } : { id: recipient, addresses: { email: `${recipient}@example.com` } },
        content: { title: 'Hi', body: 'There' },
      };
      const res = await auth(request(platform.api.url).post('/v1/notifications')).send(body);
      expect(res.status).toBe(202);
      ids.push(res.body.id as string);
      // A repeat is a duplicate: the idempotency entry lives in the same partition.
      expect((await auth(request(platform.api.url).post('/v1/notifications')).send(body)).status).toBe(200);
    }
    for (const id of ids) {
      const view = await waitFor(`${id} delivered`, async () => {
        const s = await auth(request(platform.api.url).get(`/v1/notifications/${id}`));
        return s.body.status === 'delivered' ? s.body : undefined;
      });
      expect(view).toMatchObject({ deliveredChannel: 'email' });
    }
    // Each record sits under its recipient's partition tag, and every partition was used.
    const partitions = recipients.map((r) => partitionOfRecipient(recipientHash(tenantName, r), PARTITIONS));
    expect(new Set(partitions).size).toBe(PARTITIONS);
    for (const [i, id] of ids.entries()) {
      expect(await redis.exists(notificationKey(id, partitions[i]))).toBe(1);
      if (partitions[i] !== 0) expect(await redis.exists(notificationKey(id, 0))).toBe(0);
    }
    expect(await redis.exists(recipientKey(recipientHash(tenantName, stored), partitions[0]))).toBe(1);
    const keys = await redis.keys('*');
    for (let p = 1; p < PARTITIONS; p += 1) expect(keys.some((k) => k.startsWith(`${partitionTag(p)}:q:`))).toBe(true);
    // The chaos scenario's reader finds them where they are, from the count the platform recorded.
    expect(await recordedPartitionCount(redis)).toBe(PARTITIONS);
    expect(await waitUntilTerminal(redis, ids, PARTITIONS, 5_000)).toBe(0);
    expect((await readViews(redis, ids, PARTITIONS)).map((v) => v.status)).toEqual(ids.map(() => 'delivered'));
    expect(await readViews(redis, ids, 1)).toHaveLength(ids.filter((_, i) => partitions[i] === 0).length);
  } finally {
    redis.disconnect();
  }
});

it('refuses a process started with another PARTITIONS on the same Redis', async () => {
  const redis = createRedis(platform.redis.url, 'producer');
  await waitUntilReady(redis);
  try {
    await expect(checkPartitionCount(redis, 8)).rejects.toThrow(/PARTITIONS=8.*4 ways/);
    await expect(checkPartitionCount(redis, PARTITIONS)).resolves.toBeUndefined();
  } finally {
    redis.disconnect();
  }
});
