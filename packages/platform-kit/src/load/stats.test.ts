import { latencyStats, percentile } from './stats';

it('percentiles by nearest rank', () => {
  expect(percentile([5, 1, 4, 2, 3], 95)).toBe(5);
  expect(percentile([], 95)).toBeUndefined();
  expect(latencyStats([10, 20])).toEqual({ count: 2, meanMs: 15, p95Ms: 20 });
});
