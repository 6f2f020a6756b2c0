import { CHANNELS, type Channel } from './channels';
import type { Addresses } from './schemas';
import type { RecordedOutcome, SkipReason } from './status';

/**
 * The cascade plan: the recipient's preference order (channels it did not list follow in the
 * platform's default order), keeping only channels it has an address for.
 */
export function planCascade(preferences: readonly Channel[] | undefined, addresses: Addresses): Channel[] {
  const order = [...(preferences ?? []), ...CHANNELS.filter((c) => !(preferences ?? []).includes(c))];
  return order.filter((channel) => typeof addresses[channel] === 'string');
}

export interface CascadeAttempt {
  channel: Channel;
  /** Undefined when the call never reported (the worker died mid-call): treated as unknown. */
  outcome: RecordedOutcome | undefined;
  /** False when the step spent no budget (request never left, or a processing error). */
  spent?: boolean;
}

export type NextStep =
  | { kind: 'send'; channel: Channel; skipped: { channel: Channel; reason: SkipReason }[] }
  | { kind: 'reconcile'; channel: Channel }
  | { kind: 'done'; reason: 'delivered' }
  | { kind: 'give-up'; reason: 'budget-exhausted' | 'all-channels-permanent' }
  | { kind: 'opted-out'; reason: 'all-channels-opted-out' }
  | { kind: 'unconfirmed'; reason: 'unknown-outcome-budget-exhausted' }
  | { kind: 'wait'; reason: 'all-channels-unavailable'; skipped: { channel: Channel; reason: SkipReason }[] };

/**
 * Decides the next external call of a notification. Pure: the caller supplies the history and
 * which channels are unavailable right now (open breaker, suppression), so the pipeline, the
 * models and the tests share one rule:
 * - at most `budget` calls in all; a skipped channel, a call that provably never left (refused
 *   at connect) and a message that could not be rendered spend nothing;
 * - an unknown outcome is reconciled on the same channel before anything else, because
 *   cascading after it could deliver the same event twice; when the budget is spent first it
 *   ends `unconfirmed` (the provider may have delivered: never `failed`);
 * - otherwise the next channel after the last one tried, cyclically through the plan, leaving
 *   out channels that failed permanently or could not render the message (a retry never fixes those).
 */
export function nextCascadeStep(
  plan: readonly Channel[],
  attempts: readonly CascadeAttempt[],
  budget: number,
  unavailable: (channel: Channel) => SkipReason | undefined,
): NextStep {
  const last = attempts.at(-1);
  if (last?.outcome === 'delivered') return { kind: 'done', reason: 'delivered' };
  const uncertain = unresolvedChannel(attempts);
  if (spentCalls(attempts) >= budget) {
    return uncertain ? { kind: 'unconfirmed', reason: 'unknown-outcome-budget-exhausted' } : { kind: 'give-up', reason: 'budget-exhausted' };
  }
  if (uncertain) return { kind: 'reconcile', channel: uncertain };

  const permanent = new Set(attempts.filter((a) => a.outcome === 'permanent' || a.outcome === 'processing-error').map((a) => a.channel));
  const start = last === undefined ? 0 : plan.indexOf(last.channel) + 1;
  const skipped: { channel: Channel; reason: SkipReason }[] = [];
  let candidates = 0;
  for (let offset = 0; offset < plan.length; offset += 1) {
    const channel = plan[(start + offset) % plan.length] as Channel;
    if (permanent.has(channel)) continue;
    candidates += 1;
    const reason = unavailable(channel);
    if (reason === undefined) return { kind: 'send', channel, skipped };
    skipped.push({ channel, reason });
  }
  if (candidates === 0) return { kind: 'give-up', reason: 'all-channels-permanent' };
  // Suppressions and opt-outs do not lift by waiting: every remaining channel closed that way ends it.
  if (skipped.every((s) => s.reason === 'suppressed' || s.reason === 'opted-out')) {
    // No call made and the recipient closed at least one channel itself: its choice, not a failure.
    const chosen = attempts.length === 0 && skipped.some((s) => s.reason === 'opted-out');
    return chosen ? { kind: 'opted-out', reason: 'all-channels-opted-out' } : { kind: 'give-up', reason: 'all-channels-permanent' };
  }
  return { kind: 'wait', reason: 'all-channels-unavailable', skipped };
}

/** External calls that count against the budget. */
export function spentCalls(attempts: readonly CascadeAttempt[]): number {
  return attempts.filter((a) => a.spent !== false).length;
}

/**
 * The channel whose earlier call may still deliver, if any. Only a definitive answer about the
 * key settles an unknown outcome: delivered, or permanent (the address can never succeed). A
 * transient answer to a reconciliation does not: the original request may still be on its way
 * to the provider (it was seen arriving after the reconciliation) and deliver later, so moving
 * to another channel then could deliver twice.
 */
export function unresolvedChannel(attempts: readonly CascadeAttempt[]): Channel | undefined {
  let channel: Channel | undefined;
  for (const attempt of attempts) {
    if (attempt.outcome === undefined || attempt.outcome === 'unknown') channel ??= attempt.channel;
    else if (attempt.channel === channel && (attempt.outcome === 'delivered' || attempt.outcome === 'permanent')) channel = undefined;
  }
  return channel;
}
