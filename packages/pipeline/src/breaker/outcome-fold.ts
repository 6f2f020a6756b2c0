export interface FoldedOutcomes {
  calls: number;
  failures: number;
}

/**
 * One process's outcomes of ordinary calls (made while the breaker read closed) that it has
 * not yet reported, per breaker (one per provider): the gate sends them as one add-outcomes-2 call per breaker
 * per interval instead of one script call per provider call. The rule itself (minimum volume,
 * ratio) stays in Lua; what the fold keeps from it is one number per breaker, the further
 * failures that alone could open the breaker (the script's `failuresToTrip`): once this
 * process has folded that many, it reports at once rather than at the end of the interval, so
 * a channel failing hard opens as soon as the failures that decide it exist.
 */
export class OutcomeFold {
  private readonly pending = new Map<string, FoldedOutcomes>();
  /** Until the script has told us, the first failure is reported at once. */
  private readonly failuresToTrip = new Map<string, number>();

  /** Folds one outcome; true when the caller should report this breaker now. */
  add(breaker: string, kind: 'success' | 'failure'): boolean {
    const entry = this.pending.get(breaker) ?? { calls: 0, failures: 0 };
    entry.calls += 1;
    if (kind === 'failure') entry.failures += 1;
    this.pending.set(breaker, entry);
    return kind === 'failure' && entry.failures >= (this.failuresToTrip.get(breaker) ?? 1);
  }

  /** Takes (and clears) a breaker's folded outcomes; undefined when there are none. */
  take(breaker: string): FoldedOutcomes | undefined {
    const entry = this.pending.get(breaker);
    this.pending.delete(breaker);
    return entry && entry.calls > 0 ? entry : undefined;
  }

  /** Breakers with outcomes to report. */
  breakers(): string[] {
    return [...this.pending.keys()];
  }

  /** What the script answered: further failures alone that would open it (Infinity: none would). */
  setFailuresToTrip(breaker: string, failures: number): void {
    this.failuresToTrip.set(breaker, Math.max(1, failures));
  }

  /** The breaker moved (or the answer is unknown): report the next failure at once. */
  resetFailuresToTrip(breaker: string): void {
    this.failuresToTrip.delete(breaker);
  }
}
