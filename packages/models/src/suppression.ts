import type { Channel } from './channels';
import type { FailureKind } from './wait-policy';

/**
 * Suppression: once a (recipient, channel) fails permanently, later notifications to that
 * recipient skip the channel. Only `permanent` qualifies: it is a fact about the recipient.
 * A transient error or an outage is a fact about the channel and belongs to the breaker;
 * suppressing on it would cut a recipient off a channel that comes back.
 */
export function shouldSuppress(kind: FailureKind): boolean {
  return kind === 'permanent';
}

/** The channels to leave out for one recipient: open breakers plus its suppressed channels. */
export function channelsToSkip(open: readonly Channel[], suppressed: readonly Channel[]): Channel[] {
  return [...open, ...suppressed.filter((c) => !open.includes(c))];
}
