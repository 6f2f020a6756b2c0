import { cascadeCandidates, nextCascadeStep, type Channel, type SkipReason } from '@notify/core';
import type { CascadeConfig } from '../cascade-config';
import { recordAttempts, type RecordFields } from '../notification-record';
import { reconcileProviderOf } from './next-step';
import type { After, Skip } from './step-types';

/** What comes after a step: nothing (delivered), the end, or the next step on a channel after a delay. */
export type CascadeMove =
  | { kind: 'done' }
  | { kind: 'end'; status: 'failed' | 'unconfirmed' | 'opted-out'; reason: string }
  | {
      kind: 'schedule';
      channel: Channel;
      stepKind: 'send' | 'reconcile';
      delayMs: number;
      provider?: string;
      /** A send's channels in cascade order (`channel` first): the schedule script takes the first not suppressed or opted out. */
      candidates?: Channel[];
    };

export interface CascadeDecision {
  move: CascadeMove;
  /** The skips the move records: this step's, and the channels the cascade passed over. */
  skips: Skip[];
  /** Of those, the ones the cascade found (not this step's own): counted as skips. */
  found: Skip[];
}

/**
 * The pure cascade rule on the record's history, the open breakers and the channels skipped in
 * this notification (its skips and this step's `newSkips`).
 */
export function decideCascade(
  fields: RecordFields,
  newSkips: Skip[],
  after: After,
  open: ReadonlySet<Channel>,
  config: CascadeConfig,
  now: number,
): CascadeDecision {
  const plan = JSON.parse(fields.plan ?? '[]') as Channel[];
  const attempts = recordAttempts(fields).map((a) => ({ channel: a.channel, outcome: a.outcome, spent: a.spent }));
  // Suppressions and opt-outs hold for the rest of the notification; a breaker is asked anew.
  const closed = new Map<Channel, SkipReason>();
  for (const s of [...parseSkips(fields.skips), ...newSkips]) if (s.reason === 'suppressed' || s.reason === 'opted-out') closed.set(s.channel, s.reason);
  const unavailable = (c: Channel): SkipReason | undefined => closed.get(c) ?? (open.has(c) ? 'breaker-open' : undefined);

  const decision = nextCascadeStep(plan, attempts, config.budget, unavailable);
  const found: Skip[] = [];
  if (decision.kind === 'send' || decision.kind === 'wait') {
    for (const s of decision.skipped) if (!newSkips.some((n) => n.channel === s.channel)) found.push({ ...s, at: now });
  }
  const skips = [...newSkips, ...found];
  if (decision.kind === 'done') return { move: { kind: 'done' }, skips, found };
  if (decision.kind === 'opted-out') return { move: { kind: 'end', status: 'opted-out', reason: decision.reason }, skips, found };
  // An unknown outcome waiting for its channel (breaker open, or connections refused) has
  // until the maximum age to be settled; after that it can never be, and says so. Calls that
  // never left spend no budget, so the maximum age also bounds a cascade of refusals.
  const waiting = decision.kind === 'wait' || (decision.kind === 'reconcile' && (after === 'skip' || after === 'not-sent'));
  const tooOld = (waiting || after === 'not-sent') && now - Number(fields.acceptedAt) > config.maxAgeMs;
  if (decision.kind === 'give-up' || decision.kind === 'unconfirmed' || tooOld) {
    const status = decision.kind === 'unconfirmed' || decision.kind === 'reconcile' ? 'unconfirmed' : 'failed';
    const reason =
      decision.kind === 'give-up' || decision.kind === 'unconfirmed'
        ? decision.reason
        : decision.kind === 'reconcile'
          ? 'unknown-outcome-unsettled-before-maximum-age'
          : 'no channel available before the maximum age';
    return { move: { kind: 'end', status, reason }, skips, found };
  }
  // While every channel is unavailable, the waiting job re-asks the first breaker-open one.
  const channel =
    decision.kind === 'wait'
      ? // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it (plan[0] may be undefined); the rule misreads this `??` operand
        (decision.skipped.find((s) => s.reason === 'breaker-open')?.channel ?? (plan[0] as Channel))
      : decision.channel;
  // Waiting out an unavailable channel (every channel open, or an unknown outcome that must
  // be reconciled on a channel that is open or refusing connections) re-checks at an
  // interval, never in a loop.
  const delayMs = waiting ? config.unavailableRetryMs : delayAfter(after, config);
  const stepKind = decision.kind === 'reconcile' ? 'reconcile' : 'send';
  const provider = stepKind === 'reconcile' ? reconcileProviderOf(fields, channel) : undefined;
  const candidates = decision.kind === 'send' && !waiting ? cascadeCandidates(plan, attempts, config.budget, unavailable) : undefined;
  const extra = { ...(provider !== undefined ? { provider } : {}), ...(candidates ? { candidates } : {}) };
  return { move: { kind: 'schedule', channel, stepKind, delayMs, ...extra }, skips, found };
}

function delayAfter(after: After, config: CascadeConfig): number {
  switch (after) {
    case 'transient':
      return config.transientDelayMs;
    // A call that never left is a channel outage like a transient answer (BI9's delay).
    case 'not-sent':
      return config.transientDelayMs;
    case 'permanent':
      return config.permanentDelayMs;
    case 'unknown':
      return config.reconcileDelayMs;
    default:
      return 0;
  }
}

function parseSkips(raw: string | undefined): Skip[] {
  if (!raw) return [];
  const value: unknown = JSON.parse(raw);
  return Array.isArray(value) ? (value as Skip[]) : [];
}
