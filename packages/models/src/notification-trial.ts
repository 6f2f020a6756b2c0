import { CHANNELS, type Channel } from './channels';
import { cascadeOrder, layoutOrder, nextCyclicChannel, type FailedAttempt, type Layout } from './cascade-order';
import type { EffectiveRates } from './channel-rates';
import type { Random } from './lcg';
import { pausesAfterFailure, type FailureKind, type WaitPolicy } from './wait-policy';

/** How one notification is sent: the policy knobs that the models vary. */
export interface TrialPolicy {
  readonly layout: Layout;
  readonly budget: number;
  readonly waitPolicy: WaitPolicy;
  /** Cascade only: spend budget freed by skipped channels by cycling (see nextCyclicChannel). */
  readonly reuseFreedAttempts: boolean;
}

/** One notification's fixed facts, drawn before any call is made. */
export interface TrialFacts {
  readonly preferred: Channel;
  /** Channels left out without a call (open breaker, suppression). */
  readonly skip: readonly Channel[];
  /** A failure that no retry changes (permanent, channel down), or undefined. */
  readonly fixedFailure: (channel: Channel) => FailureKind | undefined;
}

export interface FailedCall extends FailedAttempt {
  readonly kind: FailureKind;
}

export interface TrialOutcome {
  readonly calls: number;
  readonly successes: number;
  /** Pauses taken before the first success; undefined when nothing was delivered. */
  readonly pausesBeforeDelivery: number | undefined;
  readonly failures: readonly FailedCall[];
}

/**
 * Sends one notification. A call draws from `rnd` only when its channel has no fixed
 * failure: that is the seed's stream discipline, and it is why skipping a channel that would
 * fail anyway leaves every later draw, and so every other outcome, unchanged.
 */
export function runTrial(facts: TrialFacts, policy: TrialPolicy, rates: EffectiveRates, rnd: Random): TrialOutcome {
  const cyclic = policy.reuseFreedAttempts && policy.layout === 'cascade';
  const planned = cyclic
    ? cascadeOrder(facts.preferred, CHANNELS, { skip: facts.skip })
    : layoutOrder(policy.layout, facts.preferred, CHANNELS, policy.budget, { skip: facts.skip });
  const failures: FailedCall[] = [];
  let calls = 0;
  let successes = 0;
  let pauses = 0;
  let pausesBeforeDelivery: number | undefined;

  for (let index = 0; ; index += 1) {
    const channel = cyclic ? nextCyclicChannel(planned, failures, policy.budget) : planned[index];
    if (channel === undefined) break;
    calls += 1;
    const fixed = facts.fixedFailure(channel);
    const delivered = fixed === undefined && rnd() >= rates.transient[channel];
    if (delivered) {
      successes += 1;
      // Parallel calls all leave at once: the first success needs no pause at all.
      pausesBeforeDelivery ??= policy.layout === 'parallel' ? 0 : pauses;
      if (policy.layout !== 'parallel') break;
      continue;
    }
    const kind = fixed ?? 'transient';
    failures.push({ channel, kind, permanent: kind === 'permanent' });
    pauses += pausesAfterFailure(policy.waitPolicy, kind);
  }
  return { calls, successes, pausesBeforeDelivery, failures };
}
