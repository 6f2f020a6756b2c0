import { makeTraffic } from './traffic';

it('follows BI4 shares, mixes priorities and is the same for the same seed', () => {
  const items = makeTraffic({ count: 10_000, seed: 5, urgentShare: 0.5, tag: 't' });
  const share = (c: string) => items.filter((i) => i.preferred === c).length / items.length;
  expect(share('push')).toBeCloseTo(0.55, 1);
  expect(share('sms')).toBeCloseTo(0.25, 1);
  expect(share('email')).toBeCloseTo(0.2, 1);
  expect(items.filter((i) => i.priority === 'urgent').length / items.length).toBeCloseTo(0.5, 1);
  expect(items[0]?.request.recipient.preferences?.[0]).toBe(items[0]?.preferred);
  expect(makeTraffic({ count: 50, seed: 5, urgentShare: 0.5, tag: 't' })).toEqual(items.slice(0, 50));
  expect(new Set(items.map((i) => i.request.eventId)).size).toBe(items.length);
});
