import type { AttemptOutcome } from '@notify/core';
import type { GateTicket } from '../channel-gate';
import { recordKind } from './breaker-state';
import type { OutcomeFold } from './outcome-fold';

/** A ticket whose release runs once, however many times a stage or a failure path releases it. */
function releasedOnce(provider: string, onRelease: (outcome: AttemptOutcome | 'not-called') => Promise<void>): GateTicket {
  let released = false;
  return {
    provider,
    async release(outcome) {
      if (released) return;
      released = true;
      await onRelease(outcome);
    },
  };
}

/**
 * An ordinary call's ticket: its outcome is folded locally and reported with the provider's
 * next flush (at once when this process alone may decide the verdict, or with no local copy).
 */
export function ordinaryTicket(provider: string, fold: OutcomeFold, local: boolean, flush: (provider: string) => Promise<void>): GateTicket {
  return releasedOnce(provider, async (outcome) => {
    const kind = recordKind(outcome);
    // Neutral and never-called outcomes say nothing about the channel: nothing to report.
    if (kind !== 'success' && kind !== 'failure') return;
    if (fold.add(provider, kind) || !local) await flush(provider);
  });
}

/** A half-open breaker's probe: its outcome is reported at once (report-probe-2), under its lease. */
export function probeTicket(provider: string, report: (kind: ReturnType<typeof recordKind>) => Promise<void>): GateTicket {
  return releasedOnce(provider, (outcome) => report(recordKind(outcome)));
}
