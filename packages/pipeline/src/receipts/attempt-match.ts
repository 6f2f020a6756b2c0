import type { AttemptRecord } from '@notify/core';
import type { ProviderIdentity } from '@notify/providers';

/** Attempts recorded before providers had names carry none: theirs is the channel's default simulator. */
const providerOf = (a: AttemptRecord) => a.provider ?? a.channel;

export type AttemptMatch = { attempt: AttemptRecord } | { status: 'refused' | 'unmatched'; mismatch: boolean };

/**
 * The attempt an event of `provider` about `providerMessageId` may change: the newest one that
 * provider made on its channel with that message id. Another provider's attempt is a mismatch,
 * answered `refused` only when `provider` made some attempt of this notification itself (it knows
 * the notification exists); otherwise it reads as `unmatched`.
 */
export function matchAttempt(attempts: readonly AttemptRecord[], providerMessageId: string, provider: ProviderIdentity): AttemptMatch {
  const carrying = attempts.filter((a) => a.providerMessageId === providerMessageId);
  const own = carrying.findLast((a) => providerOf(a) === provider.name && a.channel === provider.channel);
  if (own) return { attempt: own };
  if (carrying.length === 0) return { status: 'unmatched', mismatch: false };
  const known = attempts.some((a) => providerOf(a) === provider.name);
  return { status: known ? 'refused' : 'unmatched', mismatch: true };
}

/** The answer to an event no attempt of the notification may take. */
export function unapplied(match: { status: 'refused' | 'unmatched' }): { status: 'refused'; reason: 'provider mismatch' } | { status: 'unmatched' } {
  return match.status === 'refused' ? { status: 'refused', reason: 'provider mismatch' } : { status: 'unmatched' };
}
