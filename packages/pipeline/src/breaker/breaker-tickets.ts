import type { AttemptOutcome } from '@notify/core';
import type { GateTicket } from '../channel-gate';
import { recordKind } from './breaker-state';
import type { OutcomeFold } from './outcome-fold';

/**
 * An ordinary call's ticket: its outcome is folded locally and reported with the provider's
 * next flush (at once when this process alone may decide the verdict, or with no local copy).
 */
export function ordinaryTicket(provider: string, fold: OutcomeFold, local: boolean, flush: (provider: string) => Promise<void>): GateTicket {
  let released = false;
  return {
    provider,
    async release(outcome: AttemptOutcome | 'not-called') {
      if (released) return;
      released = true;
      const kind = recordKind(outcome);
      // Neutral and never-called outcomes say nothing about the channel: nothing to report.
      if (kind !== 'success' && kind !== 'failure') return;
      if (fold.add(provider, kind) || !local) await flush(provider);
    },
  };
}

/** A half-open breaker's probe: its outcome is reported at once (report-probe-2), under its lease. */
export function probeTicket(provider: string, report: (kind: ReturnType<typeof recordKind>) => Promise<void>): GateTicket {
  let released = false;
  return {
    provider,
    async release(outcome: AttemptOutcome | 'not-called') {
      if (released) return;
      released = true;
      await report(recordKind(outcome));
    },
  };
}
