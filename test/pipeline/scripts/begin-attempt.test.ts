import { notificationKey, pendingIntakeKey, suppressionKey } from '@notify/core';
import type { BeginAttemptArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

const { redis, scripts, archiving } = useScriptRedis();
const { id, rh } = intakeArgs();
const key = notificationKey(id);
const begin = (overrides: Partial<BeginAttemptArgs> = {}) =>
  scripts().beginAttempt({ id, rh, step: 1, channel: 'push', now: NOW + 10, budget: 3, ...overrides });

describe('begin-attempt-4.lua', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
  });

  it('proceed: opens the attempt, counts the call, answers only content, addresses and the tenant', async () => {
    const reply = await begin();
    expect(reply).toEqual({
      code: 'proceed',
      contentJson: JSON.stringify(intakeArgs().content),
      addressesJson: JSON.stringify(intakeArgs().addresses),
      tenant: 'tenant-a',
    });
    expect(await redis().hmget(key, 'calls', 'status')).toEqual(['1', 'sending']);
    expect(JSON.parse((await redis().hget(key, 'a:1')) as string)).toEqual({ step: 1, channel: 'push', kind: 'send', startedAt: NOW + 10 });
    // The notification stays pending until it is terminal: its entry says when it last made progress.
    expect(await redis().zscore(pendingIntakeKey(), id)).toBe(String(NOW + 10));
  });

  it('proceed on a record without a tenant: no tenant in the reply (the webhook hook reads it itself)', async () => {
    await redis().hdel(key, 'tenant');
    const reply = await begin();
    expect(reply).toMatchObject({ code: 'proceed' });
    expect(reply).not.toHaveProperty('tenant');
  });

  it('terminal: a delivered, failed or unconfirmed record starts nothing', async () => {
    for (const status of ['delivered', 'failed', 'unconfirmed']) {
      await redis().hset(key, 'status', status);
      await expect(begin()).resolves.toEqual({ code: 'terminal' });
    }
    expect(await redis().hget(key, 'calls')).toBe('0');
    expect(await redis().zscore(pendingIntakeKey(), id)).toBeNull();
  });

  it('stale: a job for another step or channel than the record is at', async () => {
    await expect(begin({ step: 2 })).resolves.toEqual({ code: 'stale' });
    await expect(begin({ channel: 'sms' })).resolves.toEqual({ code: 'stale' });
  });

  it('stale: the step ran to its end already', async () => {
    await redis().hset(key, 'a:1', JSON.stringify({ step: 1, channel: 'push', kind: 'send', startedAt: NOW, outcome: 'transient' }));
    await expect(begin()).resolves.toEqual({ code: 'stale' });
  });

  it('crashed: the step was opened and never finished; it is marked unknown / worker-lost', async () => {
    await begin();
    await expect(begin({ now: NOW + 99 })).resolves.toEqual({ code: 'crashed' });
    expect(JSON.parse((await redis().hget(key, 'a:1')) as string)).toMatchObject({ outcome: 'unknown', errorClass: 'worker-lost', finishedAt: NOW + 99 });
    expect(await redis().hget(key, 'calls')).toBe('1');
  });

  it('busy: an attempt another job opened less than the lease ago is left alone', async () => {
    await expect(begin({ jobId: 'batch-7', leaseMs: 1_000 })).resolves.toMatchObject({ code: 'proceed' });
    expect(await redis().hget(key, 'j:1')).toBe('batch-7');
    const opened = await redis().hget(key, 'a:1');
    await expect(begin({ now: NOW + 10 + 999, jobId: 'step-n1-1', leaseMs: 1_000 })).resolves.toEqual({ code: 'busy' });
    expect(await redis().hget(key, 'a:1')).toBe(opened);
    expect(await redis().hmget(key, 'calls', 'status')).toEqual(['1', 'sending']);
  });

  it('crashed, not busy: the same job again (its earlier run is over), or another job after the lease', async () => {
    await begin({ jobId: 'batch-7', leaseMs: 1_000 });
    await expect(begin({ now: NOW + 20, jobId: 'batch-7', leaseMs: 1_000 })).resolves.toEqual({ code: 'crashed' });

    await redis().hdel(key, 'a:1');
    await begin({ jobId: 'batch-7', leaseMs: 1_000 });
    await expect(begin({ now: NOW + 10 + 1_000, jobId: 'step-n1-1', leaseMs: 1_000 })).resolves.toEqual({ code: 'crashed' });
    expect(JSON.parse((await redis().hget(key, 'a:1')) as string)).toMatchObject({ outcome: 'unknown', errorClass: 'worker-lost' });
  });

  it('crashed, not busy: no lease, or an attempt opened without a job id (as before)', async () => {
    await begin({ jobId: 'batch-7' });
    await expect(begin({ now: NOW + 20, jobId: 'other' })).resolves.toEqual({ code: 'crashed' });
    await redis().hdel(key, 'a:1', 'j:1');
    await begin();
    expect(await redis().hget(key, 'j:1')).toBeNull();
    await expect(begin({ now: NOW + 20, jobId: 'other', leaseMs: 1_000 })).resolves.toEqual({ code: 'crashed' });
  });

  it('missing: no record', async () => {
    await expect(begin({ id: 'n-none' })).resolves.toEqual({ code: 'missing' });
  });

  it('archived: a late job of a notification the archiver compacted finds its compact entry, not a missing record', async () => {
    const archivedId = 'ab'.repeat(16);
    await scripts().intake(intakeArgs({ id: archivedId }));
    await archiving().finishNotification({ id: archivedId, fromStep: 1, status: 'failed', reason: 'budget-exhausted', now: Date.now() });
    await scripts().compactArchived({ ids: [archivedId], idempotencyWindowSeconds: 86_400 });
    expect(await redis().exists(notificationKey(archivedId))).toBe(0);
    await expect(begin({ id: archivedId, now: Date.now() })).resolves.toEqual({ code: 'archived' });
    // A record that never existed (or expired with no entry left) is still missing.
    await expect(begin({ id: 'cd'.repeat(16), now: Date.now() })).resolves.toEqual({ code: 'missing' });
  });

  it('suppressed: the recipient failed permanently on this channel', async () => {
    await redis().set(suppressionKey(rh, 'push'), '1');
    await expect(begin()).resolves.toEqual({ code: 'suppressed' });
    expect(await redis().hget(key, 'calls')).toBe('0');
  });

  it('a reconciliation proceeds on a suppressed channel: it re-asks about a call already made, under its key', async () => {
    await redis().hset(key, 'kind', 'reconcile');
    await redis().set(suppressionKey(rh, 'push'), '1');
    await expect(begin()).resolves.toMatchObject({ code: 'proceed' });
    expect(await redis().hget(key, 'calls')).toBe('1');
  });

  it('budget: no call left', async () => {
    await redis().hset(key, 'calls', 3);
    await expect(begin()).resolves.toEqual({ code: 'budget' });
  });
});
