import { slotsHeld } from './chain-profile';
import { runChain } from './chain-model';
import type { SplitPolicy } from './split-budget';
import type { Regime } from './chain-profile';

/** One published row: answered, dropped, fail tariff, fail measure, median, worst, mean, slots, wasted. */
type Row = [number, number, number, number, number, number, string, string, number];

function row(regime: Regime, policy: SplitPolicy): Row {
  const r = runChain({ regime, policy });
  return [
    r.answered,
    r.dropped,
    r.failures.tariff,
    r.failures.measurement,
    r.medianMs,
    r.worstMs,
    r.meanMs.toFixed(1),
    slotsHeld(r.meanMs).toFixed(1),
    r.wastedMs,
  ];
}

describe("runChain reproduces the seed's budget tables (48 requests, no cancel signal)", () => {
  it.each<[Regime, SplitPolicy, Row]>([
    ['healthy', 'greedy', [48, 0, 0, 0, 40, 200, '46.2', '19.2', 0]],
    ['healthy', 'equal', [46, 2, 0, 2, 40, 190, '45.8', '19.1', 20]],
    ['healthy', 'weighted', [46, 2, 2, 0, 40, 180, '45.3', '18.9', 40]],
    ['tariff-slow', 'greedy', [6, 42, 36, 42, 200, 200, '197.8', '82.4', 5540]],
    ['tariff-slow', 'equal', [0, 48, 48, 2, 123, 200, '126.0', '52.5', 9700]],
    ['tariff-slow', 'weighted', [0, 48, 48, 0, 93, 180, '96.4', '40.2', 11120]],
  ])('%s / %s', (regime, policy, expected) => {
    expect(row(regime, policy)).toEqual(expected);
  });

  it('delivery-ops never fails in either regime', () => {
    for (const regime of ['healthy', 'tariff-slow'] as const) {
      for (const policy of ['greedy', 'equal', 'weighted', 'tail-aware'] as const) {
        expect(runChain({ regime, policy }).failures.deliveryOps).toBe(0);
      }
    }
  });
});

describe('cancellation', () => {
  it('removes wasted work and changes nothing the caller sees', () => {
    for (const policy of ['greedy', 'equal', 'weighted', 'tail-aware'] as const) {
      const off = runChain({ regime: 'tariff-slow', policy, cancel: false });
      const on = runChain({ regime: 'tariff-slow', policy, cancel: true });
      expect(on.wastedMs).toBe(0);
      expect({ ...on, wastedMs: 0 }).toEqual({ ...off, wastedMs: 0 });
    }
  });
});

describe('tail-aware split (ours)', () => {
  it('removes the healthy-day false drops: 48 of 48 answered', () => {
    expect(row('healthy', 'tail-aware')).toEqual([48, 0, 0, 0, 40, 200, '46.2', '19.2', 0]);
  });

  it('keeps the AY10 diagnosis (measurement failures 0) but holds more slots than weighted', () => {
    expect(row('tariff-slow', 'tail-aware')).toEqual([0, 48, 48, 0, 113, 200, '116.4', '48.5', 10160]);
  });

  it('needs a percentile high enough to see the 1-in-17 tail: p90 still drops 2', () => {
    expect(runChain({ regime: 'healthy', policy: 'tail-aware', tailPercentile: 0.9 }).dropped).toBe(2);
    expect(runChain({ regime: 'healthy', policy: 'tail-aware', tailPercentile: 0.95 }).dropped).toBe(0);
  });
});

describe('runChain inputs', () => {
  it('takes other request counts (upper median, as the seed)', () => {
    const one = runChain({ regime: 'healthy', policy: 'greedy', requests: 1 });
    // 20 gateway + max(8 delivery-ops, 6 tariff + 12 measurement).
    expect([one.medianMs, one.worstMs, one.meanMs]).toEqual([38, 38, 38]);
    expect(runChain({ regime: 'healthy', policy: 'equal', requests: 17 }).dropped).toBe(1);
  });

  it('rejects non-positive or fractional request counts', () => {
    for (const requests of [0, -1, 2.5]) {
      expect(() => runChain({ regime: 'healthy', policy: 'greedy', requests })).toThrow(RangeError);
    }
  });
});
