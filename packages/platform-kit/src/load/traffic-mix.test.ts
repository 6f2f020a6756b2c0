import { BI_ASSUMPTIONS } from '@notify/models';
import { makeTraffic, pickPreferred, trafficMix } from './traffic-mix';

it("follows the models' BI4 shares, mixes priorities and is the same for the same seed", () => {
  const items = makeTraffic({ count: 10_000, seed: 5, urgentShare: 0.5, tag: 't' });
  const share = (c: string) => items.filter((i) => i.preferred === c).length / items.length;
  for (const channel of ['push', 'sms', 'email'] as const) expect(share(channel)).toBeCloseTo(BI_ASSUMPTIONS.channelShare[channel], 1);
  expect(items.filter((i) => i.priority === 'urgent').length / items.length).toBeCloseTo(0.5, 1);
  expect(items[0]?.request.recipient.preferences?.[0]).toBe(items[0]?.preferred);
  expect(makeTraffic({ count: 50, seed: 5, urgentShare: 0.5, tag: 't' })).toEqual(items.slice(0, 50));
  expect(new Set(items.map((i) => i.request.eventId)).size).toBe(items.length);
});

it('takes other shares when given (an assumption changed in one place moves the traffic)', () => {
  const next = trafficMix({ seed: 1, urgentShare: 0, tag: 'x', channelShare: { push: 0, sms: 1, email: 0 } });
  expect(Array.from({ length: 100 }, () => next().preferred).every((c) => c === 'sms')).toBe(true);
  expect(pickPreferred(0.999, { push: 0.5, sms: 0.5, email: 0 })).toBe('sms');
});
