import fc from 'fast-check';
import { percentile, splitBudget } from './split-budget';

const steps = [
  { median: 6, tail: 80 },
  { median: 12, tail: 100 },
];

describe('splitBudget', () => {
  it("gives the seed's shares of 180 ms: greedy 180/180, equal 90/90, weighted 60/120", () => {
    expect(splitBudget('greedy', 180, steps)).toEqual([180, 180]);
    expect(splitBudget('equal', 180, steps)).toEqual([90, 90]);
    expect(splitBudget('weighted', 180, steps)).toEqual([60, 120]);
  });

  it('tail-aware divides by the tails: 80/100', () => {
    expect(splitBudget('tail-aware', 180, steps)).toEqual([80, 100]);
  });

  it('proportional policies never hand out more than the total', () => {
    const latency = fc.record({ median: fc.integer({ min: 1, max: 1000 }), tail: fc.integer({ min: 1, max: 5000 }) });
    fc.assert(
      fc.property(
        fc.constantFrom('equal', 'weighted', 'tail-aware' as const),
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(latency, { minLength: 1, maxLength: 6 }),
        (policy, total, s) => {
          const shares = splitBudget(policy, total, s);
          expect(shares).toHaveLength(s.length);
          expect(shares.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(total + 1e-9);
        },
      ),
    );
  });

  it('handles no steps and rejects all-zero weights', () => {
    expect(splitBudget('weighted', 180, [])).toEqual([]);
    expect(() => splitBudget('weighted', 180, [{ median: 0, tail: 0 }])).toThrow(RangeError);
  });
});

describe('percentile (nearest rank)', () => {
  const cycle = [6, 7, 6, 8, 6, 7, 6, 8, 6, 7, 6, 8, 6, 7, 6, 8, 80];
  it('returns a sample that occurred; the 1-in-17 tail appears only above p94.1', () => {
    // The profile's true median is 7; the seed's "ordinary" 6 ms is its most common value.
    expect(percentile(cycle, 0.5)).toBe(7);
    expect(percentile(cycle, 0.9)).toBe(8);
    expect(percentile(cycle, 16 / 17)).toBe(8);
    expect(percentile(cycle, 0.95)).toBe(80);
    expect(percentile(cycle, 1)).toBe(80);
  });

  it('rejects empty samples and out-of-range percentiles', () => {
    expect(() => percentile([], 0.5)).toThrow(RangeError);
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 1.01)).toThrow(RangeError);
  });
});
