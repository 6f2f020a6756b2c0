import { notificationKey, suppressionKey } from '@notify/core';
import type { FinishAttemptArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

const { redis, scripts } = useScriptRedis();
const { id, rh } = intakeArgs();
const key = notificationKey(id);
const finish = (overrides: Partial<FinishAttemptArgs> = {}) => scripts().finishAttempt({
  id, rh, channel: 'push', step: 1, outcome: 'transient', errorClass: 'http-503', message: 'busy', now: NOW + 50, durationMs: 40,
  suppressionTtlSeconds: 60, spent: true, ...overrides,
});
const attempt = async () => JSON.parse((await redis().hget(key, 'a:1')) as string) as Record<string, unknown>;

describe('finish-attempt-2.lua', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
    await scripts().beginAttempt({ id, rh, step: 1, channel: 'push', now: NOW + 10, budget: 3 });
  });

  it('recorded: a transient outcome, the call stays spent', async () => {
    await expect(finish()).resolves.toEqual({ code: 'recorded', acceptedAt: NOW, calls: 1 });
    expect(await attempt()).toMatchObject({ outcome: 'transient', errorClass: 'http-503', finishedAt: NOW + 50, durationMs: 40 });
    expect(await redis().hget(key, 'status')).toBe('sending');
  });

  it('recorded: a delivery sets the delivered marker and erases the addresses, keeping their hashes', async () => {
    await expect(finish({ outcome: 'delivered', errorClass: undefined, message: undefined })).resolves.toMatchObject({ code: 'recorded' });
    const record = await redis().hgetall(key);
    expect(record).toMatchObject({ status: 'delivered', deliveredChannel: 'push', deliveredAt: String(NOW + 50) });
    expect(record.addresses).toBeUndefined();
    expect(JSON.stringify(record)).not.toContain('+905551112233');
    expect(JSON.parse(record.ah as string)).toEqual(intakeArgs().addressHashes);
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
