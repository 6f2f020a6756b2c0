import { createLoginLimiter } from './login-limiter';

describe('login limiter', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('blocks a client after maxFailures until its window ends, and no other client', () => {
    const limiter = createLoginLimiter({ maxFailures: 3, windowMs: 60_000, now });
    for (let i = 0; i < 2; i += 1) limiter.fail('a');
    expect(limiter.retryAfterMs('a')).toBe(0);
    limiter.fail('a');
    clock += 10_000;
    expect(limiter.retryAfterMs('a')).toBe(50_000);
    expect(limiter.retryAfterMs('b')).toBe(0);
    clock += 50_000;
    expect(limiter.retryAfterMs('a')).toBe(0);
  });

  it('forgets failures on success', () => {
    const limiter = createLoginLimiter({ maxFailures: 2, now });
    limiter.fail('a');
    limiter.succeed('a');
    limiter.fail('a');
    expect(limiter.retryAfterMs('a')).toBe(0);
  });

  it('remembers at most maxClients addresses, forgetting the oldest', () => {
    const limiter = createLoginLimiter({ maxFailures: 1, maxClients: 2, now });
    limiter.fail('a');
    limiter.fail('b');
    limiter.fail('c');
    expect(limiter.retryAfterMs('a')).toBe(0);
    expect(limiter.retryAfterMs('b')).toBeGreaterThan(0);
    expect(limiter.retryAfterMs('c')).toBeGreaterThan(0);
  });
});
