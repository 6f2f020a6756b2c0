import { archiveQueueKey, dueIndexKey, eventIndexKey, notificationKey, pendingIntakeKey, pendingUrgentKey } from '@notify/core';
import type { CancelNotificationArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

const { redis, scripts, archiving } = useScriptRedis();
const { id, rh } = intakeArgs();
const key = notificationKey(id);
const cancel = (overrides: Partial<CancelNotificationArgs> = {}) =>
  scripts().cancelNotification({ id, tenant: 'tenant-a', now: NOW + 50, reason: 'canceled by its tenant', ...overrides });
const begin = (now = NOW + 10) => scripts().beginAttempt({ id, rh, step: 1, channel: 'push', now, budget: 3 });
const finish = (outcome: 'transient' | 'unknown') =>
  scripts().finishAttempt({ id, rh, channel: 'push', step: 1, outcome, now: NOW + 20, durationMs: 10, suppressionTtlSeconds: 0, spent: true });

describe('cancel-notification-5.lua', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
  });

  it('canceled: an accepted record ends canceled, addresses erased, off the pending sets and the due index; no attempt opens after it', async () => {
    await redis().zadd(dueIndexKey(), NOW + 60_000, id);
    expect(await redis().zscore(pendingUrgentKey(), id)).toBe(String(NOW));
    await expect(cancel()).resolves.toEqual({ code: 'canceled', priority: 'urgent' });
    expect(await redis().hmget(key, 'status', 'reason', 'finishedAt', 'addresses')).toEqual(['canceled', 'canceled by its tenant', String(NOW + 50), null]);
    expect(await redis().zscore(pendingIntakeKey(), id)).toBeNull();
    expect(await redis().zscore(pendingUrgentKey(), id)).toBeNull();
    expect(await redis().zscore(dueIndexKey(), id)).toBeNull();
    await expect(begin(NOW + 60)).resolves.toEqual({ code: 'terminal' });
    expect(await redis().hget(key, 'calls')).toBe('0');
  });

  it('canceled: a scheduled record (waiting for its sendAt, no job yet) leaves the due index, so it is never released', async () => {
    await redis().hset(key, 'status', 'scheduled');
    await redis().zrem(pendingIntakeKey(), id);
    await redis().zadd(dueIndexKey(), NOW + 3_600_000, id);
    await expect(cancel()).resolves.toMatchObject({ code: 'canceled' });
    expect(await redis().zcard(dueIndexKey())).toBe(0);
    expect(await redis().hget(key, 'status')).toBe('canceled');
  });

  it('already: a second cancel answers as the first did and changes nothing', async () => {
    await cancel();
    await expect(cancel({ now: NOW + 99 })).resolves.toEqual({ code: 'already' });
    expect(await redis().hget(key, 'finishedAt')).toBe(String(NOW + 50));
  });

  it('refused sending: while the attempt is open (the call in flight), and after an unknown outcome (it may have delivered)', async () => {
    await begin();
    await expect(cancel()).resolves.toEqual({ code: 'refused', state: 'sending' });
    await finish('unknown');
    await expect(cancel()).resolves.toEqual({ code: 'refused', state: 'sending' });
    await scripts().scheduleStep({ id, fromStep: 1, channel: 'push', kind: 'reconcile', skips: [], status: 'routing' });
    await expect(cancel()).resolves.toEqual({ code: 'refused', state: 'sending' });
    expect(await redis().hget(key, 'status')).not.toBe('canceled');
  });

  it('canceled: between cascade steps, after a transient failure (nothing in flight)', async () => {
    await begin();
    await finish('transient');
    await scripts().scheduleStep({ id, fromStep: 1, channel: 'sms', kind: 'send', skips: [], status: 'retry-scheduled' });
    await expect(cancel()).resolves.toMatchObject({ code: 'canceled' });
    await expect(scripts().beginAttempt({ id, rh, step: 2, channel: 'sms', now: NOW + 60, budget: 3 })).resolves.toEqual({ code: 'terminal' });
  });

  it('refused with the terminal status: a delivered or failed record stays as it is', async () => {
    for (const status of ['delivered', 'failed', 'expired']) {
      await redis().hset(key, 'status', status);
      await expect(cancel()).resolves.toEqual({ code: 'refused', state: status });
      expect(await redis().hget(key, 'status')).toBe(status);
    }
  });

  it("missing: another tenant's record reads as unknown, and stays as it is", async () => {
    await expect(cancel({ tenant: 'tenant-b' })).resolves.toEqual({ code: 'missing' });
    await expect(cancel({ id: 'n0000000000000000000000000000009' })).resolves.toEqual({ code: 'missing' });
    expect(await redis().hget(key, 'status')).toBe('accepted');
  });

  it('with history on, a canceled record joins the archive queue', async () => {
    await archiving().cancelNotification({ id, tenant: 'tenant-a', now: NOW + 50, reason: 'x' });
    expect(await redis().zrange(archiveQueueKey(), '0', '-1', 'WITHSCORES')).toEqual([id, String(NOW + 50)]);
  });

  it('the event index holds the id from intake on, under the name TypeScript computes, until the record is archived', async () => {
    expect(await redis().smembers(eventIndexKey('tenant-a', 'e-1'))).toEqual([id]);
    expect(await redis().ttl(eventIndexKey('tenant-a', 'e-1'))).toBeGreaterThan(0);
    await archiving().cancelNotification({ id, tenant: 'tenant-a', now: NOW + 50, reason: 'x' });
    await expect(archiving().compactArchived({ ids: [id], idempotencyWindowSeconds: 86_400 })).resolves.toMatchObject({ written: 1 });
    expect(await redis().exists(eventIndexKey('tenant-a', 'e-1'))).toBe(0);
  });
});

describe('begin-attempt-4.lua and expiresAt', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs({ expiresAt: NOW + 1_000 }));
  });

  it('expired: at or after expiresAt no attempt opens (a send or a reconciliation); before it, one does', async () => {
    await expect(begin(NOW + 1_000)).resolves.toEqual({ code: 'expired' });
    expect(await redis().hmget(key, 'calls', 'a:1', 'status')).toEqual(['0', null, 'accepted']);
    await expect(begin(NOW + 999)).resolves.toMatchObject({ code: 'proceed' });
    await finish('unknown');
    await scripts().scheduleStep({ id, fromStep: 1, channel: 'push', kind: 'reconcile', skips: [], status: 'routing' });
    await expect(scripts().beginAttempt({ id, rh, step: 2, channel: 'push', now: NOW + 1_001, budget: 3 })).resolves.toEqual({ code: 'expired' });
  });

  it('finish-notification ends it expired (the step path does so on `expired`)', async () => {
    await expect(scripts().finishNotification({ id, fromStep: 1, status: 'expired', reason: 'r', now: NOW + 1_000 })).resolves.toEqual({ code: 'ended' });
    expect(await redis().hmget(key, 'status', 'expiresAt')).toEqual(['expired', String(NOW + 1_000)]);
  });
});
