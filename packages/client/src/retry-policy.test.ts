import { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, retryPolicy } from './retry-policy';

it('backs off exponentially with jitter, up to the maximum', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
  expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(policy, n, undefined, () => 0))).toEqual([50, 100, 200, 400, 500]);
  expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(policy, n, undefined, () => 1))).toEqual([100, 200, 400, 800, 1_000]);
});

it("waits at least the api's Retry-After, also above the maximum backoff", () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
  expect(retryDelayMs(policy, 1, 3_000, () => 0)).toBe(3_000);
  expect(retryDelayMs(policy, 1, 3_000, () => 1)).toBe(3_100);
});

it('reads Retry-After as seconds or an HTTP date', () => {
  const now = Date.parse('2026-12-01T00:00:00Z');
  expect(parseRetryAfter('2', now)).toBe(2_000);
  expect(parseRetryAfter('Tue, 01 Dec 2026 00:00:05 GMT', now)).toBe(5_000);
  expect([parseRetryAfter(null), parseRetryAfter('soon')]).toEqual([undefined, undefined]);
});

it('false means one attempt; a bad count is refused', () => {
  expect(retryPolicy(false).maxAttempts).toBe(1);
  expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
});
