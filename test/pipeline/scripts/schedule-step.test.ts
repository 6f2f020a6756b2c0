import { notificationKey } from '@notify/core';
import type { ScheduleStepArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

const { redis, scripts } = useScriptRedis();
const { id } = intakeArgs();
const key = notificationKey(id);
const schedule = (overrides: Partial<ScheduleStepArgs> = {}) =>
  scripts().scheduleStep({ id, fromStep: 1, channel: 'sms', kind: 'send', skips: [], status: 'retry-scheduled', ...overrides });

describe('schedule-step-1.lua', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
  });

  it('scheduled: moves to the next step and channel, appending skips (newest 20 kept)', async () => {
    const skips = Array.from({ length: 25 }, (_, i) => ({ channel: 'push', reason: 'breaker-open', at: NOW + i }));
    await expect(schedule({ skips })).resolves.toEqual({ code: 'scheduled' });
    const record = await redis().hgetall(key);
    expect(record).toMatchObject({ step: '2', chan: 'sms', kind: 'send', status: 'retry-scheduled' });
    const kept = JSON.parse(record.skips as string) as { at: number }[];
    expect(kept).toHaveLength(20);
    expect(kept[0]?.at).toBe(NOW + 5);
  });

  it('stale: another run moved it already, or it is terminal', async () => {
    await expect(schedule({ fromStep: 2 })).resolves.toEqual({ code: 'stale' });
    await redis().hset(key, 'status', 'unconfirmed');
    await expect(schedule()).resolves.toEqual({ code: 'stale' });
    expect(await redis().hget(key, 'step')).toBe('1');
  });

  it('missing: no record', async () => {
    await expect(schedule({ id: 'n-none' })).resolves.toEqual({ code: 'missing' });
  });
});
