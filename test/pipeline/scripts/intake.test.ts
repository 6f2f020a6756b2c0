import { notificationKey, pendingIntakeKey } from '@notify/core';
import { useScriptRedis, intakeArgs, NOW } from './script-redis';

const { redis, scripts } = useScriptRedis();
const key = notificationKey(intakeArgs().id);

describe('intake-2.lua', () => {
  it('created: writes the record, its address hashes and the pending-intake entry', async () => {
    await expect(scripts().intake(intakeArgs())).resolves.toEqual({ code: 'created' });
    const record = await redis().hgetall(key);
    expect(record).toMatchObject({ status: 'accepted', step: '1', chan: 'push', calls: '0', acceptedAt: String(NOW) });
    expect(JSON.parse(record.ah as string)).toEqual({ push: 'h-push', sms: 'h-sms', email: 'h-email' });
    expect(await redis().zscore(pendingIntakeKey(), intakeArgs().id)).toBe(String(NOW));
  });

  it('duplicate: same fingerprint answers the status, and the first channel while still accepted', async () => {
    await scripts().intake(intakeArgs());
    await expect(scripts().intake(intakeArgs())).resolves.toEqual({ code: 'duplicate', status: 'accepted', firstChannel: 'push' });
    await redis().hset(key, 'status', 'delivered');
    await expect(scripts().intake(intakeArgs())).resolves.toEqual({ code: 'duplicate', status: 'delivered', firstChannel: undefined });
  });

  it('conflict: same key, another payload', async () => {
    await scripts().intake(intakeArgs());
    await expect(scripts().intake(intakeArgs({ fingerprint: 'fp-other' }))).resolves.toEqual({ code: 'conflict' });
  });
});
