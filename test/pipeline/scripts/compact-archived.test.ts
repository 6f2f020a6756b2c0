import { archiveQueueKey, idempotencyBucketPrefix, idempotencyMetaKey, notificationKey } from '@notify/core';
import { DEFAULT_IDEMPOTENCY_BUCKET_BITS } from '@notify/pipeline';
import { intakeArgs, useScriptRedis } from './script-redis';

const { redis, scripts, archiving } = useScriptRedis();
const WINDOW = 7 * 86_400;
const hexId = (n: number) => n.toString(16).padStart(32, 'a');
const FP = 'f'.repeat(8) + '0123456789abcdef'.repeat(3) + '01234567';
const today = () => Math.floor(Date.now() / 86_400_000);

/** A notification taken to 'failed' by the scripts with history on: it is on the archive queue. */
async function terminal(n: number): Promise<string> {
  const id = hexId(n);
  await scripts().intake(intakeArgs({ id, fingerprint: FP }));
  await archiving().finishNotification({ id, fromStep: 1, status: 'failed', reason: 'budget-exhausted', now: Date.now() });
  return id;
}

describe('compact-archived-2.lua', () => {
  it("compacted: the full record gives way to a compact entry in today's bucket; the id leaves the queue", async () => {
    const id = await terminal(1);
    await expect(scripts().compactArchived({ ids: [id], idempotencyWindowSeconds: WINDOW })).resolves.toEqual({ code: 'compacted', written: 1, dropped: 0 });
    expect(await redis().exists(notificationKey(id))).toBe(0);
    expect(await redis().zcard(archiveQueueKey())).toBe(0);
    const keys = await redis().keys(`${idempotencyBucketPrefix()}*`);
    expect(keys).toHaveLength(1);
    const bucket = keys[0] as string;
    expect(bucket.startsWith(`${idempotencyBucketPrefix()}${today()}:`)).toBe(true);
    // field: the id's 16 bytes; value: 8 bytes of fingerprint + 'f' (failed)
    const value = await redis().hgetBuffer(bucket, Buffer.from(id, 'hex'));
    expect(value).toEqual(Buffer.concat([Buffer.from(FP.slice(0, 16), 'hex'), Buffer.from('f')]));
    const ttl = await redis().ttl(bucket);
    expect(ttl).toBeGreaterThan(WINDOW);
    expect(ttl).toBeLessThanOrEqual(WINDOW + 86_400);
    expect(await redis().hgetall(idempotencyMetaKey())).toEqual({ [`b:${today()}`]: String(DEFAULT_IDEMPOTENCY_BUCKET_BITS), [`n:${today()}`]: '1' });
  });

  it('compacted: idempotent (a repeat only clears the queue), and a record that is gone or still in flight only leaves the queue', async () => {
    const done = await terminal(2);
    const inFlight = hexId(3);
    await scripts().intake(intakeArgs({ id: inFlight, fingerprint: FP }));
    await redis().zadd(archiveQueueKey(), 1, inFlight, 1, hexId(4));
    await expect(scripts().compactArchived({ ids: [done, inFlight, hexId(4)], idempotencyWindowSeconds: WINDOW })).resolves.toEqual({
      code: 'compacted',
      written: 1,
      dropped: 2,
    });
    expect(await redis().exists(notificationKey(inFlight))).toBe(1);
    await expect(scripts().compactArchived({ ids: [done], idempotencyWindowSeconds: WINDOW })).resolves.toEqual({ code: 'compacted', written: 0, dropped: 1 });
    expect(await redis().zcard(archiveQueueKey())).toBe(0);
  });

  it("compacted: a new day takes its bucket count from the day before's volume, and forgets days past the window", async () => {
    const d = today();
    await redis().hset(idempotencyMetaKey(), `n:${d - 1}`, 100_000, `b:${d - 1}`, 12, `b:${d - 30}`, 3, `n:${d - 30}`, 9);
    await scripts().compactArchived({ ids: [await terminal(5)], idempotencyWindowSeconds: WINDOW });
    // 100,000 / 64 entries a bucket -> 2^11 buckets
    expect(await redis().hgetall(idempotencyMetaKey())).toEqual({ [`n:${d - 1}`]: '100000', [`b:${d - 1}`]: '12', [`b:${d}`]: '11', [`n:${d}`]: '1' });
  });
});
