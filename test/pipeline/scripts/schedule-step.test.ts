import { notificationKey } from '@notify/core';
import type { ScheduleStepArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

const { redis, scripts } = useScriptRedis();
const { id } = intakeArgs();
const key = notificationKey(id);
const schedule = (overrides: Partial<ScheduleStepArgs> = {}) =>
  scripts().scheduleStep({ id, fromStep: 1, channel: 'sms', kind: 'send', skips: [], status: 'retry-scheduled', ...overrides });

describe('schedule-step-5.lua', () => {
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
  });

  it('scheduled: moves to the next step and channel, appending skips', async () => {
    await expect(schedule({ skips: [{ channel: 'push', reason: 'breaker-open', at: NOW }] })).resolves.toEqual({
      code: 'scheduled',
      channel: 'sms',
      skipped: [],
    });
    const record = await redis().hgetall(key);
    expect(record).toMatchObject({ step: '2', chan: 'sms', kind: 'send', status: 'retry-scheduled' });
    expect(JSON.parse(record.skips as string)).toEqual([{ channel: 'push', reason: 'breaker-open', at: NOW }]);
  });

  it('a skip is recorded once per channel and reason, however often a waiting step re-checks', async () => {
    for (let step = 1; step <= 25; step += 1) {
      const skips = [
        { channel: 'push', reason: 'breaker-open', at: NOW + step },
        { channel: 'sms', reason: step % 2 === 0 ? 'suppressed' : 'breaker-open', at: NOW + step },
      ];
      await expect(schedule({ fromStep: step, skips })).resolves.toEqual({ code: 'scheduled', channel: 'sms', skipped: [] });
    }
    const kept = JSON.parse((await redis().hget(key, 'skips')) as string) as unknown[];
    expect(kept).toEqual([
      { channel: 'push', reason: 'breaker-open', at: NOW + 1 },
      { channel: 'sms', reason: 'breaker-open', at: NOW + 1 },
      { channel: 'sms', reason: 'suppressed', at: NOW + 2 },
    ]);
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
