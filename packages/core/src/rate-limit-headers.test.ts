import { rateLimitHeaders, rateLimitPolicyField, retryAfterSeconds, type TenantLimitState } from './rate-limit-headers';

const both: TenantLimitState['policy'] = { rate: { perSecond: 100, burst: 100 }, dailyQuota: 10_000 };

describe('RateLimit headers (draft-ietf-httpapi-ratelimit-headers)', () => {
  it('states each policy as a String item with q and w: the bucket refills in w seconds, the quota per UTC day', () => {
    expect(rateLimitPolicyField(both)).toBe('"rate";q=100;w=1, "daily";q=10000;w=86400');
    expect(rateLimitPolicyField({ rate: { perSecond: 100, burst: 250 } })).toBe('"rate";q=250;w=3');
    expect(rateLimitPolicyField({ rate: { perSecond: 0.5, burst: 1 } })).toBe('"rate";q=1;w=2');
    expect(rateLimitPolicyField({ dailyQuota: 7 })).toBe('"daily";q=7;w=86400');
    expect(rateLimitPolicyField({})).toBeUndefined();
  });

  it('tells what is left (r) and the whole seconds until more is (t), rounded up', () => {
    const state: TenantLimitState = { policy: both, rateRemaining: 42, rateResetMs: 10, quotaRemaining: 9_000, quotaResetMs: 3_599_001 };
    expect(rateLimitHeaders(state)).toEqual({
      'ratelimit-policy': '"rate";q=100;w=1, "daily";q=10000;w=86400',
      ratelimit: '"rate";r=42;t=1, "daily";r=9000;t=3600',
    });
    expect(rateLimitHeaders({ policy: { dailyQuota: 5 }, quotaRemaining: 0, quotaResetMs: 1000 })).toEqual({
      'ratelimit-policy': '"daily";q=5;w=86400',
      ratelimit: '"daily";r=0;t=1',
    });
  });

  it('adds Retry-After to a refusal: the next token for the rate, the end of the UTC day for the quota, never below 1', () => {
    const state: TenantLimitState = { policy: both, rateRemaining: 0, rateResetMs: 2_500, quotaRemaining: 0, quotaResetMs: 7_200_000 };
    expect(rateLimitHeaders(state, 'rate')['retry-after']).toBe('3');
    expect(rateLimitHeaders(state, 'quota')['retry-after']).toBe('7200');
    expect(retryAfterSeconds({ ...state, rateResetMs: 0 }, 'rate')).toBe(1);
    expect(rateLimitHeaders(state)['retry-after']).toBeUndefined();
  });
});
