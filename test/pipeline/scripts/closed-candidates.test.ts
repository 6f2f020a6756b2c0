import { notificationKey, optOutField, optOutKey, suppressionKey } from '@notify/core';
import type { ScheduleStepArgs } from '@notify/pipeline';
import { intakeArgs, NOW, useScriptRedis } from './script-redis';

/**
 * The intake and schedule-step scripts read suppressions and opt-outs in the record's slot and
 * start a step on the first open candidate, so a closed channel never gets a lane job that only
 * skips it. The channels passed over are recorded with their reason and answered for counting.
 */
const { redis, scripts } = useScriptRedis();
const args = intakeArgs();
const key = notificationKey(args.id);
const suppress = (channel: 'push' | 'sms' | 'email') => redis().set(suppressionKey(args.rh, channel), 'bounce');
const optOut = (category: string, channel: 'push' | 'sms' | 'email') => redis().hset(optOutKey(args.rh), optOutField(category, channel), '0');
const skipsOf = async () => JSON.parse((await redis().hget(key, 'skips')) as string) as unknown[];

describe('intake-9.lua with candidates', () => {
  it('starts on the first candidate that is not suppressed, recording the skip', async () => {
    await suppress('push');
    const reply = await scripts().intake(intakeArgs({ candidates: ['push', 'sms', 'email'] }));
    expect(reply).toEqual({ code: 'created', status: 'accepted', firstChannel: 'sms', skipped: [{ channel: 'push', reason: 'suppressed' }] });
    expect(await redis().hget(key, 'chan')).toBe('sms');
    expect(await skipsOf()).toEqual([{ channel: 'push', reason: 'suppressed', at: NOW }]);
  });

  it('reads opt-outs only when asked, for the category and the global switch', async () => {
    await optOut('marketing', 'push');
    await optOut('*', 'sms');
    const unread = await scripts().intake(intakeArgs({ candidates: ['push', 'sms', 'email'], category: 'marketing' }));
    expect(unread).toMatchObject({ firstChannel: 'push', skipped: [] });
    await redis().del(key);
    const read = await scripts().intake(intakeArgs({ candidates: ['push', 'sms', 'email'], category: 'marketing', readOptOuts: true }));
    expect(read).toMatchObject({
      firstChannel: 'email',
      skipped: [
        { channel: 'push', reason: 'opted-out' },
        { channel: 'sms', reason: 'opted-out' },
      ],
    });
  });

  it('every candidate closed: keeps the caller first channel and records nothing (its step ends the notification)', async () => {
    for (const c of ['push', 'sms', 'email'] as const) await suppress(c);
    await expect(scripts().intake(intakeArgs({ candidates: ['push', 'sms', 'email'] }))).resolves.toMatchObject({ firstChannel: 'push', skipped: [] });
    expect(await skipsOf()).toEqual([]);
  });

  it('a scheduled notification is not checked at intake (its step is, when due)', async () => {
    await suppress('push');
    const reply = await scripts().intake(intakeArgs({ candidates: ['push', 'sms'], now: Date.now(), sendAt: Date.now() + 3_600_000 }));
    expect(reply).toMatchObject({ status: 'scheduled', firstChannel: 'push', skipped: [] });
  });
});

describe('schedule-step-5.lua with candidates', () => {
  const schedule = (o: Partial<ScheduleStepArgs>) =>
    scripts().scheduleStep({ id: args.id, fromStep: 1, channel: 'sms', kind: 'send', skips: [], status: 'retry-scheduled', rh: args.rh, now: NOW, ...o });
  beforeEach(async () => {
    await scripts().intake(intakeArgs());
  });

  it('moves to the first open candidate, appending the closed ones skips', async () => {
    await suppress('sms');
    await optOut('orders', 'email');
    const reply = await schedule({ candidates: ['sms', 'email', 'push'], optOutCategory: 'orders' });
    expect(reply).toEqual({
      code: 'scheduled',
      channel: 'push',
      skipped: [
        { channel: 'sms', reason: 'suppressed' },
        { channel: 'email', reason: 'opted-out' },
      ],
    });
    expect(await redis().hmget(key, 'step', 'chan')).toEqual(['2', 'push']);
    expect(await skipsOf()).toEqual([
      { channel: 'sms', reason: 'suppressed', at: NOW },
      { channel: 'email', reason: 'opted-out', at: NOW },
    ]);
  });

  it('without candidates the channel is taken as given', async () => {
    await suppress('sms');
    await expect(schedule({})).resolves.toEqual({ code: 'scheduled', channel: 'sms', skipped: [] });
  });
});
