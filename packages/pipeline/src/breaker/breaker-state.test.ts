import { ATTEMPT_OUTCOMES } from '@notify/core';
import { BREAKER_STATE_CODE, isBreakerState, recordKind } from './breaker-state';

describe('recordKind', () => {
  it('counts transient and unknown, treats permanent as neutral', () => {
    expect(recordKind('delivered')).toBe('success');
    expect(recordKind('transient')).toBe('failure');
    expect(recordKind('unknown')).toBe('failure');
    expect(recordKind('permanent')).toBe('neutral');
    expect(recordKind('not-called')).toBe('not-called');
  });

  it('maps every attempt outcome', () => {
    for (const outcome of ATTEMPT_OUTCOMES) expect(['success', 'failure', 'neutral']).toContain(recordKind(outcome));
  });
});

it('orders the gauge by how much is refused', () => {
  expect(BREAKER_STATE_CODE).toEqual({ closed: 0, 'half-open': 1, open: 2 });
  expect(isBreakerState('half-open')).toBe(true);
  expect(isBreakerState('ajar')).toBe(false);
});
