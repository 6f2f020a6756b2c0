import { archiveQueueKey, notificationKey, pendingIntakeKey } from '@notify/core';
import type { FinishNotificationArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

const { redis, scripts, archiving } = useScriptRedis();
const { id } = intakeArgs();
const key = notificationKey(id);
const end = (overrides: Partial<FinishNotificationArgs> = {}) =>
  scripts().finishNotification({ id, fromStep: 1, status: 'failed', reason: 'budget-exhausted', now: NOW + 70, ...overrides });

describe('finish-notification-3.lua', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
  });

  it('ended: failed with its reason, addresses erased, hashes kept', async () => {
    await expect(end({ skips: [{ channel: 'sms', reason: 'suppressed', at: NOW }] })).resolves.toEqual({ code: 'ended' });
    const record = await redis().hgetall(key);
    expect(record).toMatchObject({ status: 'failed', reason: 'budget-exhausted', finishedAt: String(NOW + 70) });
    expect(JSON.parse(record.skips as string)).toEqual([{ channel: 'sms', reason: 'suppressed', at: NOW }]);
    expect(record.addresses).toBeUndefined();
    expect(JSON.parse(record.ah as string)).toEqual(intakeArgs().addressHashes);
  });

  it('ended: unconfirmed, when an unknown outcome could not be settled', async () => {
    await expect(end({ status: 'unconfirmed', reason: 'unknown-outcome-budget-exhausted' })).resolves.toEqual({ code: 'ended' });
    expect(await redis().hmget(key, 'status', 'reason', 'addresses')).toEqual(['unconfirmed', 'unknown-outcome-budget-exhausted', null]);
  });

  it('ended: the notification leaves the pending set (the sweeper only reads open ones); a stale end leaves it alone', async () => {
    expect(await redis().zscore(pendingIntakeKey(), id)).not.toBeNull();
    await expect(end({ fromStep: 2 })).resolves.toEqual({ code: 'stale' });
    expect(await redis().zscore(pendingIntakeKey(), id)).not.toBeNull();
    await expect(end()).resolves.toEqual({ code: 'ended' });
    expect(await redis().zscore(pendingIntakeKey(), id)).toBeNull();
  });

  it('ended: with history on, the record joins the archive queue once, scored by when it ended; history off leaves the queue alone', async () => {
    const args: FinishNotificationArgs = { id, fromStep: 1, status: 'failed', reason: 'budget-exhausted', now: NOW + 70 };
    await expect(archiving().finishNotification(args)).resolves.toEqual({ code: 'ended' });
    await expect(archiving().finishNotification(args)).resolves.toEqual({ code: 'stale' });
    expect(await redis().zrange(archiveQueueKey(), '0', '-1', 'WITHSCORES')).toEqual([id, String(NOW + 70)]);
    await redis().del(archiveQueueKey());
    await redis().hset(key, 'status', 'sending');
    await expect(end()).resolves.toEqual({ code: 'ended' });
    expect(await redis().zcard(archiveQueueKey())).toBe(0);
  });

  it('stale: never overrides a delivery, nor a step that moved on', async () => {
    await expect(end({ fromStep: 2 })).resolves.toEqual({ code: 'stale' });
    await redis().hset(key, 'status', 'delivered');
    await expect(end()).resolves.toEqual({ code: 'stale' });
    expect(await redis().hget(key, 'status')).toBe('delivered');
  });

  it('missing: no record', async () => {
    await expect(end({ id: 'n-none' })).resolves.toEqual({ code: 'missing' });
  });
});
