import { z } from 'zod';
import { DEFAULT_BREAKER_CONFIG, breakerEnvShape, toBreakerConfig } from './breaker-config';

const schema = z.object(breakerEnvShape);

describe('breaker env', () => {
  it('defaults to the documented config', () => {
    expect(toBreakerConfig(schema.parse({}))).toEqual(DEFAULT_BREAKER_CONFIG);
  });

  it('reads every variable', () => {
    const config = toBreakerConfig(
      schema.parse({
        BREAKER_ENABLED: 'false',
        BREAKER_WINDOW_MS: '2000',
        BREAKER_MIN_CALLS: '5',
        BREAKER_FAILURE_RATIO: '0.25',
        BREAKER_OPEN_MS: '700',
        BREAKER_PROBES: '1',
        BREAKER_PROBE_SUCCESSES: '4',
        BREAKER_PROBE_LEASE_MS: '900',
        BREAKER_CACHE_MS: '0',
        BREAKER_REDIS_TIMEOUT_MS: '50',
      }),
    );
    expect(config).toEqual({
      enabled: false,
      windowMs: 2000,
      windowSlots: 10,
      minCalls: 5,
      failureRatio: 0.25,
      openMs: 700,
      probes: 1,
      probeSuccesses: 4,
      probeLeaseMs: 900,
      cacheMs: 0,
      redisTimeoutMs: 50,
    });
  });

  it.each([
    ['BREAKER_ENABLED', 'yes'],
    ['BREAKER_FAILURE_RATIO', '0'],
    ['BREAKER_FAILURE_RATIO', '1.5'],
    ['BREAKER_MIN_CALLS', '0'],
    ['BREAKER_WINDOW_MS', 'ten'],
    ['BREAKER_PROBES', '0'],
    ['BREAKER_PROBE_LEASE_MS', '-1'],
  ])('rejects %s=%s', (name, value) => {
    const parsed = schema.safeParse({ [name]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([name]);
  });

  it('keeps push closed on its normal BI5 rate: 50 % of 20 calls is far above 5 %', () => {
    // P(Binomial(20, 0.05) >= 10): the chance a healthy push trips at the minimum sample.
    let p = 0;
    for (let k = DEFAULT_BREAKER_CONFIG.failureRatio * DEFAULT_BREAKER_CONFIG.minCalls; k <= DEFAULT_BREAKER_CONFIG.minCalls; k += 1) {
      let c = 1;
      for (let j = 0; j < k; j += 1) c = (c * (DEFAULT_BREAKER_CONFIG.minCalls - j)) / (j + 1);
      p += c * 0.05 ** k * 0.95 ** (DEFAULT_BREAKER_CONFIG.minCalls - k);
    }
    expect(p).toBeLessThan(1e-7);
  });
});
