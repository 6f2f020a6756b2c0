import { Redis } from 'ioredis';
import { notificationKey, partitionOfId } from '@notify/core';
import { pollUntilTerminal, readRecordViews } from '@notify/platform-kit';
import { intakeArgs, useScriptRedis } from './scripts/script-redis';

/** platform-kit's record reader (the test harness's and the chaos scenario's), against a real Redis. */
const { redis, scripts } = useScriptRedis();
const { id } = intakeArgs();

describe('readRecordViews', () => {
  it('answers the views in order, undefined where no record exists', async () => {
    await scripts().intake(intakeArgs());
    const missing = 'f'.repeat(32);
    const [found, absent] = await readRecordViews(redis(), [id, missing]);
    expect(found).toMatchObject({ id, status: 'accepted' });
    expect(absent).toBeUndefined();
  });

  it('reads a record in its id partition', async () => {
    // An id whose tail names partition 2 of 4, its record written under that partition's tag.
    const partitioned = `${'a'.repeat(28)}0002`;
    expect(partitionOfId(partitioned, 4)).toBe(2);
    await scripts().intake(intakeArgs());
    const fields = await redis().hgetall(notificationKey(id));
    await redis().hset(notificationKey(partitioned, 2), { ...fields, id: partitioned });
    expect((await readRecordViews(redis(), [partitioned], 4))[0]).toMatchObject({ id: partitioned, status: 'accepted' });
    expect((await readRecordViews(redis(), [partitioned], 1))[0]).toBeUndefined();
  });
});

describe('pollUntilTerminal', () => {
  it('counts the records still open at the timeout, missing ones included', async () => {
    await scripts().intake(intakeArgs());
    await expect(pollUntilTerminal(redis(), [id, 'f'.repeat(32)], { timeoutMs: 100, intervalMs: 20 })).resolves.toEqual({ open: 2 });
  });

  it('resolves once every record is terminal', async () => {
    await scripts().intake(intakeArgs());
    const polling = pollUntilTerminal(redis(), [id, id], { timeoutMs: 30_000, intervalMs: 20 });
    await redis().hset(notificationKey(id), 'status', 'delivered');
    await expect(polling).resolves.toEqual({ open: 0 });
  });

  it('retries a poll Redis fails and reports the last error', async () => {
    // A client that never connects and queues nothing: every command fails at once.
    const offline = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    try {
      const result = await pollUntilTerminal(offline, [id], { timeoutMs: 100, intervalMs: 20 });
      expect(result.open).toBe(1);
      expect(result.lastError?.message).toMatch(/writeable/);
    } finally {
      offline.disconnect();
    }
  });
});
