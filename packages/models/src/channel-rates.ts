import { CHANNELS, type Channel, type PerChannel } from './channels';
import type { NotificationAssumptions } from './notification-assumptions';

/** Per-call error probabilities after the stress multiplier is applied. */
export interface EffectiveRates {
  readonly transient: PerChannel<number>;
  readonly permanent: PerChannel<number>;
}

/**
 * The largest multiplier that keeps every error probability <= 1. The seed silently caps at
 * 1 instead; a cap hides a typo (x30 instead of x3), so here it is an input error.
 */
export function maxMultiplier(assumptions: NotificationAssumptions): number {
  const worst = Math.max(...CHANNELS.flatMap((c) => [assumptions.transientError[c], assumptions.permanentError[c]]));
  return worst === 0 ? Number.POSITIVE_INFINITY : 1 / worst;
}

/** Throws RangeError unless `multiplier` is finite, >= 0 and keeps each probability <= 1. */
export function effectiveRates(assumptions: NotificationAssumptions, multiplier: number): EffectiveRates {
  if (!Number.isFinite(multiplier) || multiplier < 0) {
    throw new RangeError(`multiplier must be a finite number >= 0, got ${multiplier}`);
  }
  const scale = (rates: PerChannel<number>, what: string): PerChannel<number> => {
    const scaled = { push: 0, sms: 0, email: 0 };
    for (const c of CHANNELS) {
      // Same operand order as the seed (rate x multiplier) so the products are bit-identical.
      const p = rates[c] * multiplier;
      if (p > 1) {
        throw new RangeError(`multiplier ${multiplier} makes the ${what} error probability of ${c} ${p} (> 1)`);
      }
      scaled[c] = p;
    }
    return scaled;
  };
  return {
    transient: scale(assumptions.transientError, 'transient'),
    permanent: scale(assumptions.permanentError, 'permanent'),
  };
}

/**
 * Maps a uniform draw to the preferred channel by walking the shares in channel order.
 * It subtracts as it goes (rather than comparing with running sums) because that is what the
 * seed does, and the two differ in the last bit for draws on a boundary.
 */
export function pickPreferred(draw: number, share: PerChannel<number>): Channel {
  let u = draw;
  for (const c of CHANNELS) {
    if (u < share[c]) return c;
    u -= share[c];
  }
  return CHANNELS[CHANNELS.length - 1] as Channel;
}
