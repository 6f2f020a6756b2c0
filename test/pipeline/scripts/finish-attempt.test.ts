import { archiveQueueKey, notificationKey, pendingIntakeKey, suppressionKey } from '@notify/core';
import type { FinishAttemptArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

const { redis, scripts, archiving } = useScriptRedis();
const { id, rh } = intakeArgs();
const key = notificationKey(id);
const finish = (overrides: Partial<FinishAttemptArgs> = {}) =>
  scripts().finishAttempt({
    id,
    rh,
    channel: 'push',
    step: 1,
    outcome: 'transient',
    errorClass: 'http-503',
    message: 'busy',
    now: NOW + 50,
    durationMs: 40,
    suppressionTtlSeconds: 60,
    spent: true,
    ...overrides,
  });
const attempt = async () => JSON.parse((await redis().hget(key, 'a:1')) as string) as Record<string, unknown>;

describe('finish-attempt-4.lua', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
    await scripts().beginAttempt({ id, rh, step: 1, channel: 'push', now: NOW + 10, budget: 3 });
  });

  it('recorded: a transient outcome, the call stays spent (and the notification stays in the pending set: it is still open)', async () => {
    await expect(finish()).resolves.toEqual({ code: 'recorded', acceptedAt: NOW, calls: 1 });
    expect(await attempt()).toMatchObject({ outcome: 'transient', errorClass: 'http-503', finishedAt: NOW + 50, durationMs: 40 });
    expect(await redis().hget(key, 'status')).toBe('sending');
    expect(await redis().zscore(pendingIntakeKey(), id)).not.toBeNull();
  });

  it('recorded: a delivery takes the notification out of the pending set (the sweeper only reads open ones)', async () => {
    expect(await redis().zscore(pendingIntakeKey(), id)).not.toBeNull();
    await finish({ outcome: 'delivered' });
    expect(await redis().zscore(pendingIntakeKey(), id)).toBeNull();
  });

  it('recorded: a delivery sets the delivered marker and erases the addresses, keeping their hashes', async () => {
    await expect(finish({ outcome: 'delivered', errorClass: undefined, message: undefined })).resolves.toMatchObject({ code: 'recorded' });
    const record = await redis().hgetall(key);
    expect(record).toMatchObject({ status: 'delivered', deliveredChannel: 'push', deliveredAt: String(NOW + 50) });
    expect(record.addresses).toBeUndefined();
    expect(JSON.stringify(record)).not.toContain('+905551112233');
    expect(JSON.parse(record.ah as string)).toEqual(intakeArgs().addressHashes);
  });

  it('recorded: with history on, a delivery (and only a delivery) puts the record on the archive queue, scored by when it ended', async () => {
    const viaArchiving = (o: Partial<FinishAttemptArgs>) =>
      archiving().finishAttempt({
        id,
        rh,
        channel: 'push',
        step: 1,
        outcome: 'delivered',
        now: NOW + 50,
        durationMs: 40,
        suppressionTtlSeconds: 60,
        spent: true,
        ...o,
      });
    await finish({ outcome: 'delivered' });
    expect(await redis().zcard(archiveQueueKey())).toBe(0); // history off: the record stays as it is
    await redis().hdel(key, 'status');
    await redis().hset(key, 'a:1', JSON.stringify({ step: 1, channel: 'push', startedAt: NOW + 10 }));
    await expect(viaArchiving({ outcome: 'transient' })).resolves.toMatchObject({ code: 'recorded' });
    expect(await redis().zcard(archiveQueueKey())).toBe(0);
    await redis().hset(key, 'a:1', JSON.stringify({ step: 1, channel: 'push', startedAt: NOW + 10 }));
    await expect(viaArchiving({})).resolves.toMatchObject({ code: 'recorded' });
    expect(await redis().zrange(archiveQueueKey(), '0', '-1', 'WITHSCORES')).toEqual([id, String(NOW + 50)]);
  });

  it('recorded: a call that never left (or a processing error) gives its call back', async () => {
    await expect(finish({ errorClass: 'ECONNREFUSED', spent: false })).resolves.toEqual({ code: 'recorded', acceptedAt: NOW, calls: 0 });
    expect(await attempt()).toMatchObject({ outcome: 'transient', spent: false });
  });

  it('recorded: a permanent outcome suppresses (recipient, channel)', async () => {
    await finish({ outcome: 'permanent' });
    expect(await redis().ttl(suppressionKey(rh, 'push'))).toBeGreaterThan(0);
  });

  it('stale: the attempt was finished already', async () => {
    await finish();
    await expect(finish({ outcome: 'delivered' })).resolves.toEqual({ code: 'stale' });
    expect(await redis().hget(key, 'status')).toBe('sending');
  });

  it('missing: no record', async () => {
    await expect(finish({ id: 'n-none' })).resolves.toEqual({ code: 'missing' });
  });
});
