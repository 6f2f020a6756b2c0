import { CHANNELS, type Channel } from './channels';
import { effectiveRates, pickPreferred } from './channel-rates';
import type { Layout } from './cascade-order';
import { createLcg } from './lcg';
import { BI_ASSUMPTIONS, type NotificationAssumptions } from './notification-assumptions';
import { runTrial, type TrialOutcome } from './notification-trial';
import type { FailureKind, WaitPolicy } from './wait-policy';

/** The seed's run: one peak minute (1,736.11 notifications/s x 60 s) from seed 20260730. */
export const SEED_NOTIFICATIONS = 104_167;
export const SEED_RANDOM_SEED = 20_260_730;

export interface DispatchOptions {
  readonly layout: Layout;
  /** LCG seed, taken modulo 2^32. @defaultValue 20260730 */
  readonly seed?: number;
  /** @defaultValue 104167 */
  readonly notifications?: number;
  /** Scales every error probability; a product above 1 is a RangeError. @defaultValue 1 */
  readonly multiplier?: number;
  /** A channel that fails every call. @defaultValue undefined */
  readonly down?: Channel;
  /** Ours: the down channel's breaker is open, so it is skipped without a call. @defaultValue false */
  readonly breakerAware?: boolean;
  /** Ours: spend attempts freed by skipping (the product's cyclic rule). @defaultValue false */
  readonly reuseFreedAttempts?: boolean;
  /** @defaultValue 'always' (the seed's rule) */
  readonly waitPolicy?: WaitPolicy;
  /** @defaultValue BI_ASSUMPTIONS */
  readonly assumptions?: NotificationAssumptions;
}

export interface DispatchResult {
  readonly notifications: number;
  readonly delivered: number;
  readonly externalCalls: number;
  /** Deliveries beyond the first for the same notification (parallel only). */
  readonly duplicates: number;
  /** Sum, over delivered notifications, of the pauses taken before the first delivery. */
  readonly pauses: number;
  /** Delivered with no pause at all: the only ones that can meet a seconds-scale bound. */
  readonly deliveredWithoutPause: number;
  readonly deliveryRate: number;
  readonly callsPerNotification: number;
  /** Mean seconds of pauses before delivery; null when nothing was delivered. */
  readonly meanDeliverySeconds: number | null;
}

/** Accumulates trial outcomes into the published measures. */
export class DispatchTally {
  private delivered = 0;
  private calls = 0;
  private duplicates = 0;
  private pauses = 0;
  private withoutPause = 0;
  private count = 0;

  add(outcome: TrialOutcome): void {
    this.count += 1;
    this.calls += outcome.calls;
    if (outcome.successes === 0 || outcome.pausesBeforeDelivery === undefined) return;
    this.delivered += 1;
    this.duplicates += outcome.successes - 1;
    this.pauses += outcome.pausesBeforeDelivery;
    if (outcome.pausesBeforeDelivery === 0) this.withoutPause += 1;
  }

  result(waitSeconds: number): DispatchResult {
    return {
      notifications: this.count,
      delivered: this.delivered,
      externalCalls: this.calls,
      duplicates: this.duplicates,
      pauses: this.pauses,
      deliveredWithoutPause: this.withoutPause,
      deliveryRate: this.delivered / this.count,
      callsPerNotification: this.calls / this.count,
      // (pauses / delivered) x wait, in this order, as the seed computes it.
      meanDeliverySeconds: this.delivered === 0 ? null : (this.pauses / this.delivered) * waitSeconds,
    };
  }
}

export function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
}

/**
 * The seed's dispatch model. Per notification it draws, in order: the preferred channel, a
 * permanent-error flag per channel (none for a down channel), then one draw per call that can
 * succeed. Every option left at its default reproduces the seed exactly.
 */
export function runDispatch(options: DispatchOptions): DispatchResult {
  const assumptions = options.assumptions ?? BI_ASSUMPTIONS;
  const notifications = options.notifications ?? SEED_NOTIFICATIONS;
  assertCount('notifications', notifications, 1);
  const rates = effectiveRates(assumptions, options.multiplier ?? 1);
  const rnd = createLcg(options.seed ?? SEED_RANDOM_SEED);
  const down = options.down;
  const skip = options.breakerAware === true && down !== undefined ? [down] : [];
  const policy = {
    layout: options.layout,
    budget: assumptions.attemptBudget,
    waitPolicy: options.waitPolicy ?? 'always',
    reuseFreedAttempts: options.reuseFreedAttempts ?? false,
  } as const;
  const tally = new DispatchTally();
  const fixed = new Map<Channel, FailureKind>();

  for (let i = 0; i < notifications; i += 1) {
    const preferred = pickPreferred(rnd(), assumptions.channelShare);
    fixed.clear();
    for (const c of CHANNELS) {
      if (c === down) fixed.set(c, 'channel-down');
      else if (rnd() < rates.permanent[c]) fixed.set(c, 'permanent');
    }
    tally.add(runTrial({ preferred, skip, fixedFailure: (c) => fixed.get(c) }, policy, rates, rnd));
  }
  return tally.result(assumptions.waitSeconds);
}
