import fc from 'fast-check';
import { TRACKING_REFERENCE, LATENCY_CYCLES } from './reference-scenario';
import { createSplitPolicy, latencyTableFromSamples, percentile, SPLIT_POLICY_NAMES } from './split-policy';

const PRICING = ['tariff', 'measurement'] as const;
const params = { expectedMs: TRACKING_REFERENCE.expectedMs, tailMs: TRACKING_REFERENCE.tailMs };

describe('split policies over the 180 ms pricing branch', () => {
  it.each([
    ['greedy', [180, 180]],
    ['equal', [90, 90]],
    ['weighted', [60, 120]],
    ['tail-aware', [80, 100]],
  ])('%s plans %j', (name, expected) => {
    expect(createSplitPolicy(name, params).shares(180, PRICING)).toEqual(expected);
  });

  it('never plans more than the total for one step, and only greedy over-commits the sum', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SPLIT_POLICY_NAMES),
        fc.double({ min: 0, max: 10_000, noNaN: true }),
        fc.array(fc.double({ min: 0.1, max: 1000, noNaN: true }), { minLength: 1, maxLength: 6 }),
        (name, total, latencies) => {
          const steps = latencies.map((_, i) => `s${i}`);
          const table = Object.fromEntries(steps.map((s, i) => [s, latencies[i] as number]));
          const shares = createSplitPolicy(name, { expectedMs: table, tailMs: table }).shares(total, steps);
          expect(shares).toHaveLength(steps.length);
          for (const share of shares) expect(share).toBeLessThanOrEqual(total + 1e-9);
          const sum = shares.reduce((a, b) => a + b, 0);
          if (name !== 'greedy') expect(sum).toBeCloseTo(total, 6);
        },
      ),
    );
  });

  it('rejects an unknown policy with the list of known ones', () => {
    expect(() => createSplitPolicy('fastest')).toThrow('unknown split policy "fastest"; expected one of greedy, equal, weighted, tail-aware');
  });

  it('needs latency inputs for weighted and tail-aware, for every step it is asked about', () => {
    expect(() => createSplitPolicy('weighted')).toThrow(/expected latencies/);
    expect(() => createSplitPolicy('tail-aware')).toThrow(/tail latencies/);
    expect(() => createSplitPolicy('weighted', { expectedMs: { tariff: 6 } }).shares(180, PRICING)).toThrow(/"measurement"/);
    expect(() => createSplitPolicy('weighted', { expectedMs: { tariff: 0 } })).toThrow(/positive/);
  });

  it('derives the tail-aware inputs from samples: p95 of the healthy cycles is each long tail', () => {
    expect(latencyTableFromSamples(LATENCY_CYCLES.healthy, 95)).toEqual(TRACKING_REFERENCE.tailMs);
    // p90 stays inside each cycle's body: a tail-aware split from it would cut every tail.
    expect(latencyTableFromSamples(LATENCY_CYCLES.healthy, 90)).toEqual({ 'delivery-ops': 10, tariff: 8, measurement: 14 });
    expect(percentile([3, 1, 2], 100)).toBe(3);
    expect(() => percentile([], 50)).toThrow(/empty/);
  });
});
