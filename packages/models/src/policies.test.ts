import fc from 'fast-check';
import { cascadeOrder, layoutOrder, nextCyclicChannel } from './cascade-order';
import { CHANNELS } from './channels';
import { channelsToSkip, shouldSuppress } from './suppression';
import { pausesAfterFailure } from './wait-policy';

describe('cascadeOrder', () => {
  it('puts the preferred channel first, then the rest in platform order', () => {
    expect(cascadeOrder('push', CHANNELS)).toEqual(['push', 'sms', 'email']);
    expect(cascadeOrder('sms', CHANNELS)).toEqual(['sms', 'push', 'email']);
    expect(cascadeOrder('email', CHANNELS)).toEqual(['email', 'push', 'sms']);
  });

  it('leaves skipped channels out (even the preferred one) without taking their place', () => {
    expect(cascadeOrder('push', CHANNELS, { skip: ['push'] })).toEqual(['sms', 'email']);
    expect(cascadeOrder('sms', CHANNELS, { skip: ['push', 'email'] })).toEqual(['sms']);
    expect(cascadeOrder('sms', CHANNELS, { skip: [...CHANNELS] })).toEqual([]);
  });

  it('is a permutation of the unskipped channels', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CHANNELS), fc.subarray([...CHANNELS]), (preferred, skip) => {
        const order = cascadeOrder(preferred, CHANNELS, { skip });
        expect([...order].sort()).toEqual(CHANNELS.filter((c) => !skip.includes(c)).sort());
        if (!skip.includes(preferred)) expect(order[0]).toBe(preferred);
      }),
    );
  });
});

describe('layoutOrder', () => {
  it('single repeats the preferred channel up to the budget; the others follow the cascade', () => {
    expect(layoutOrder('single', 'sms', CHANNELS, 3)).toEqual(['sms', 'sms', 'sms']);
    expect(layoutOrder('single', 'sms', CHANNELS, 3, { skip: ['sms'] })).toEqual([]);
    expect(layoutOrder('parallel', 'email', CHANNELS, 3)).toEqual(['email', 'push', 'sms']);
    expect(layoutOrder('cascade', 'email', CHANNELS, 2)).toEqual(['email', 'push']);
  });
});

describe('nextCyclicChannel (the product rule for freed attempts)', () => {
  const order = ['sms', 'email'] as const;
  it('cycles after the last channel tried, up to the budget', () => {
    expect(nextCyclicChannel(order, [], 3)).toBe('sms');
    expect(nextCyclicChannel(order, [{ channel: 'sms', permanent: false }], 3)).toBe('email');
    const twoTransient = [
      { channel: 'sms', permanent: false },
      { channel: 'email', permanent: false },
    ] as const;
    expect(nextCyclicChannel(order, twoTransient, 3)).toBe('sms');
    expect(nextCyclicChannel(order, twoTransient, 2)).toBeUndefined();
  });

  it('never returns to a channel that failed permanently', () => {
    const failures = [
      { channel: 'sms', permanent: true },
      { channel: 'email', permanent: false },
    ] as const;
    expect(nextCyclicChannel(order, failures, 3)).toBe('email');
    expect(
      nextCyclicChannel(
        order,
        [
          { channel: 'sms', permanent: true },
          { channel: 'email', permanent: true },
        ],
        3,
      ),
    ).toBeUndefined();
    expect(nextCyclicChannel([], [], 3)).toBeUndefined();
  });
});

describe('pausesAfterFailure', () => {
  it("the seed's rule always pauses; ours skips the pause only after a permanent error", () => {
    expect(['transient', 'permanent', 'channel-down'].map((k) => pausesAfterFailure('always', k as never))).toEqual([1, 1, 1]);
    expect(pausesAfterFailure('after-transient', 'transient')).toBe(1);
    expect(pausesAfterFailure('after-transient', 'permanent')).toBe(0);
    // An outage looks transient to the caller: only a breaker may skip it.
    expect(pausesAfterFailure('after-transient', 'channel-down')).toBe(1);
  });
});

describe('suppression', () => {
  it('suppresses only on a permanent error (a fact about the recipient)', () => {
    expect(shouldSuppress('permanent')).toBe(true);
    expect(shouldSuppress('transient')).toBe(false);
    expect(shouldSuppress('channel-down')).toBe(false);
  });

  it('merges open breakers and suppressed channels without duplicates', () => {
    expect(channelsToSkip(['push'], ['push', 'email'])).toEqual(['push', 'email']);
    expect(channelsToSkip([], [])).toEqual([]);
  });
});
