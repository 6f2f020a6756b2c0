import { CHANNELS, type Channel, type PerChannel } from './channels';
import { effectiveRates, pickPreferred } from './channel-rates';
import { assertCount, DispatchTally, SEED_NOTIFICATIONS, SEED_RANDOM_SEED, type DispatchResult } from './dispatch-model';
import { createLcg } from './lcg';
import { BI_ASSUMPTIONS, type NotificationAssumptions } from './notification-assumptions';
import { runTrial } from './notification-trial';
import { channelsToSkip, shouldSuppress } from './suppression';
import type { WaitPolicy } from './wait-policy';

/**
 * A day of repeated recipients. The seed draws permanent errors afresh per notification, so it
 * cannot show suppression; here each recipient has a fixed preference and a fixed permanent
 * error per channel (drawn once), and receives several notifications (BI2: 6) through the day.
 */
export interface RecipientDayOptions {
  /** @defaultValue 20260730 */
  readonly seed?: number;
  /** Total notifications. @defaultValue 104167 */
  readonly notifications?: number;
  /** Recipients = ceil(notifications / perRecipient). @defaultValue assumptions' BI2 (6) */
  readonly perRecipient?: number;
  /** @defaultValue 1 */
  readonly multiplier?: number;
  /** Skip a (recipient, channel) after it failed permanently. @defaultValue false */
  readonly suppression?: boolean;
  /** @defaultValue 'always' */
  readonly waitPolicy?: WaitPolicy;
  /** @defaultValue BI_ASSUMPTIONS */
  readonly assumptions?: NotificationAssumptions;
}

export interface RecipientDayResult extends DispatchResult {
  readonly recipients: number;
  /** (recipient, channel) pairs on the suppression list at the end of the run. */
  readonly suppressionEntries: number;
}

interface RecipientProfile {
  readonly preferred: Channel;
  readonly permanent: PerChannel<boolean>;
}

/**
 * Recipients are drawn first, then notifications go round-robin (notification j to recipient
 * j mod R). Calls to a permanently failing channel draw nothing, so with and without
 * suppression the stream, and hence every delivery, is the same: only the calls differ.
 */
export function runRecipientDay(options: RecipientDayOptions = {}): RecipientDayResult {
  const assumptions = options.assumptions ?? BI_ASSUMPTIONS;
  const notifications = options.notifications ?? SEED_NOTIFICATIONS;
  const perRecipient = options.perRecipient ?? assumptions.notificationsPerRecipient;
  assertCount('notifications', notifications, 1);
  assertCount('perRecipient', perRecipient, 1);
  const rates = effectiveRates(assumptions, options.multiplier ?? 1);
  const rnd = createLcg(options.seed ?? SEED_RANDOM_SEED);
  const recipients = Math.ceil(notifications / perRecipient);

  const profiles: RecipientProfile[] = [];
  for (let r = 0; r < recipients; r += 1) {
    const preferred = pickPreferred(rnd(), assumptions.channelShare);
    const permanent = { push: false, sms: false, email: false };
    for (const c of CHANNELS) permanent[c] = rnd() < rates.permanent[c];
    profiles.push({ preferred, permanent });
  }

  const suppressed: Channel[][] = profiles.map(() => []);
  const policy = {
    layout: 'cascade',
    budget: assumptions.attemptBudget,
    waitPolicy: options.waitPolicy ?? 'always',
    reuseFreedAttempts: false,
  } as const;
  const tally = new DispatchTally();
  let entries = 0;

  for (let j = 0; j < notifications; j += 1) {
    const r = j % recipients;
    const profile = profiles[r];
    const list = suppressed[r];
    if (profile === undefined || list === undefined) throw new Error(`no recipient ${r}`);
    const facts = {
      preferred: profile.preferred,
      skip: channelsToSkip([], options.suppression === true ? list : []),
      fixedFailure: (c: Channel) => (profile.permanent[c] ? ('permanent' as const) : undefined),
    };
    const outcome = runTrial(facts, policy, rates, rnd);
    tally.add(outcome);
    if (options.suppression !== true) continue;
    for (const failure of outcome.failures) {
      if (shouldSuppress(failure.kind) && !list.includes(failure.channel)) {
        list.push(failure.channel);
        entries += 1;
      }
    }
  }
  return { ...tally.result(assumptions.waitSeconds), recipients, suppressionEntries: entries };
}
