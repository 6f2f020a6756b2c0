import { runDispatch, type DispatchOptions } from './dispatch-model';
import type { Layout } from './cascade-order';

const rate = (layout: Layout, extra: Partial<DispatchOptions> = {}) => runDispatch({ layout, ...extra }).deliveryRate.toFixed(4);

describe('runDispatch reproduces every number the seed publishes (104,167 notifications, seed 20260730)', () => {
  const single = runDispatch({ layout: 'single' });
  const parallel = runDispatch({ layout: 'parallel' });
  const cascade = runDispatch({ layout: 'cascade' });

  it.each([
    ['single', single, '0.9590', 116305, '1.117', 0, '1.08'],
    ['parallel', parallel, '0.9999', 312501, '3.000', 190861, '0.00'],
    ['cascade', cascade, '0.9999', 112357, '1.079', 0, '2.35'],
  ])('%s layout table row', (_name, r, delivery, calls, perNotification, duplicates, meanSeconds) => {
    expect(r.notifications).toBe(104167);
    expect(r.deliveryRate.toFixed(4)).toBe(delivery);
    expect(r.externalCalls).toBe(calls);
    expect(r.callsPerNotification.toFixed(3)).toBe(perNotification);
    expect(r.duplicates).toBe(duplicates);
    expect(r.meanDeliverySeconds?.toFixed(2)).toBe(meanSeconds);
  });

  it('error-rate multiplier rows x1 / x2 / x3', () => {
    expect([1, 2, 3].map((m) => [rate('single', { multiplier: m }), rate('parallel', { multiplier: m }), rate('cascade', { multiplier: m })])).toEqual([
      ['0.9590', '0.9999', '0.9999'],
      ['0.9199', '0.9993', '0.9994'],
      ['0.8790', '0.9979', '0.9979'],
    ]);
  });

  it('push fully down: delivery and external calls per layout', () => {
    const down = (['single', 'parallel', 'cascade'] as const).map((layout) => runDispatch({ layout, down: 'push' }));
    expect(down.map((r) => r.deliveryRate.toFixed(4))).toEqual(['0.4443', '0.9993', '0.9991']);
    expect(down.map((r) => r.externalCalls)).toEqual([220661, 312501, 166806]);
  });

  it('derived lines: 4.09 points, x2.78 calls, 190861 duplicates = 1.83 per notification, 0.00 s vs 2.35 s', () => {
    expect(((cascade.deliveryRate - single.deliveryRate) * 100).toFixed(2)).toBe('4.09');
    expect((parallel.externalCalls / cascade.externalCalls).toFixed(2)).toBe('2.78');
    expect((parallel.duplicates / parallel.notifications).toFixed(2)).toBe('1.83');
    expect(parallel.meanDeliverySeconds?.toFixed(2)).toBe('0.00');
    expect(cascade.meanDeliverySeconds?.toFixed(2)).toBe('2.35');
  });

  it("the seed's breaker estimate 54,449 = 166,806 - 112,357", () => {
    expect(runDispatch({ layout: 'cascade', down: 'push' }).externalCalls - cascade.externalCalls).toBe(54449);
  });
});

describe('runDispatch, the platform policies', () => {
  it('breaker-aware cascade: same deliveries as the seed cascade, no call to the open channel', () => {
    for (const down of ['push', 'sms', 'email'] as const) {
      const seed = runDispatch({ layout: 'cascade', down });
      const breaker = runDispatch({ layout: 'cascade', down, breakerAware: true });
      expect(breaker.delivered).toBe(seed.delivered);
      expect(breaker.externalCalls).toBeLessThan(seed.externalCalls);
    }
    const push = runDispatch({ layout: 'cascade', down: 'push', breakerAware: true });
    expect(push.externalCalls).toBe(107868);
    expect(166806 - push.externalCalls).toBe(58938);
  });

  it('breaker-aware is the plain cascade when nothing is down', () => {
    expect(runDispatch({ layout: 'cascade', breakerAware: true })).toEqual(runDispatch({ layout: 'cascade' }));
  });

  it('reusing freed attempts buys delivery for a few calls when a channel is skipped', () => {
    const plain = runDispatch({ layout: 'cascade', down: 'push', breakerAware: true });
    const reuse = runDispatch({ layout: 'cascade', down: 'push', breakerAware: true, reuseFreedAttempts: true });
    expect(reuse.deliveryRate.toFixed(4)).toBe('0.9998');
    expect(reuse.externalCalls).toBe(107929);
    expect(reuse.delivered).toBeGreaterThan(plain.delivered);
    // With no skip and budget = channels, cycling is exactly the seed's cascade.
    expect(runDispatch({ layout: 'cascade', reuseFreedAttempts: true })).toEqual(runDispatch({ layout: 'cascade' }));
  });

  it('no wait after a permanent error changes only latency: 2.35 s -> 1.06 s, x3 back under 5 s', () => {
    const seed = runDispatch({ layout: 'cascade' });
    const noWait = runDispatch({ layout: 'cascade', waitPolicy: 'after-transient' });
    expect({ ...noWait, pauses: 0, meanDeliverySeconds: 0, deliveredWithoutPause: 0 }).toEqual({
      ...seed,
      pauses: 0,
      meanDeliverySeconds: 0,
      deliveredWithoutPause: 0,
    });
    expect(noWait.meanDeliverySeconds?.toFixed(2)).toBe('1.06');
    expect(runDispatch({ layout: 'cascade', multiplier: 3 }).meanDeliverySeconds?.toFixed(2)).toBe('7.11');
    expect(runDispatch({ layout: 'cascade', multiplier: 3, waitPolicy: 'after-transient' }).meanDeliverySeconds?.toFixed(2)).toBe('3.05');
  });

  it('a down channel still costs a pause without a breaker (it looks transient to the caller)', () => {
    const noWait = runDispatch({ layout: 'cascade', down: 'push', waitPolicy: 'after-transient' });
    expect(noWait.meanDeliverySeconds?.toFixed(2)).toBe('17.48');
    const both = runDispatch({ layout: 'cascade', down: 'push', breakerAware: true, waitPolicy: 'after-transient' });
    expect(both.meanDeliverySeconds?.toFixed(2)).toBe('0.52');
  });
});

describe('runDispatch input checks', () => {
  it('rejects a multiplier that makes a probability > 1 instead of capping it', () => {
    expect(() => runDispatch({ layout: 'cascade', multiplier: 17 })).toThrow(/push .*> 1/);
    expect(() => runDispatch({ layout: 'cascade', multiplier: -1 })).toThrow(RangeError);
    expect(() => runDispatch({ layout: 'cascade', multiplier: 16.5, notifications: 10 })).not.toThrow();
  });

  it('rejects non-integer or non-positive sizes', () => {
    for (const notifications of [0, -3, 1.5, Number.NaN]) {
      expect(() => runDispatch({ layout: 'single', notifications })).toThrow(RangeError);
    }
  });

  it('reports a mean of null (not NaN) when nothing is delivered', () => {
    // Seed 0's first notification prefers push (u = 12345 / 2^32), which is down here.
    const r = runDispatch({ layout: 'single', seed: 0, notifications: 1, down: 'push' });
    expect(r.delivered).toBe(0);
    expect(r.meanDeliverySeconds).toBeNull();
  });
});
