import type { AttemptOutcome } from '@notify/core';

export const BREAKER_STATES = ['closed', 'half-open', 'open'] as const;
export type BreakerState = (typeof BREAKER_STATES)[number];

/** `notify_breaker_state` values: 0 closed, 1 half-open, 2 open (ordered by how much is refused). */
export const BREAKER_STATE_CODE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export function isBreakerState(value: string): value is BreakerState {
  return (BREAKER_STATES as readonly string[]).includes(value);
}

/** What a call's outcome tells the breaker about the channel. */
export type RecordKind = 'success' | 'failure' | 'neutral' | 'not-called';

/**
 * What a call's outcome tells the breaker about the channel:
 * - delivered: the channel works (success);
 * - transient: the channel failed now (failure);
 * - unknown: no answer in time; unresolved, and a channel that does not answer is not healthy
 *   (failure);
 * - permanent: the provider answered, the address or consent is bad: says nothing about the
 *   channel (neutral; counting it would keep push open on its 6 % BI6 floor);
 * - not-called: the call never happened (the record refused it): only frees a probe lease.
 */
export function recordKind(outcome: AttemptOutcome | 'not-called'): RecordKind {
  switch (outcome) {
    case 'delivered':
      return 'success';
    case 'transient':
    case 'unknown':
      return 'failure';
    case 'permanent':
      return 'neutral';
    default:
      return 'not-called';
  }
}
