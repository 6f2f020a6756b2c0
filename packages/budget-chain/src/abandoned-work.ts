import type { Clock } from './clock';

/**
 * The dependency's side of the ledger: how long it kept working after its caller gave up.
 * Start one when the work starts, `finish()` when the work ends (completed or stopped); the
 * result is the abandoned (wasted) milliseconds: 0 if the caller never gave up.
 */
export class AbandonmentWatch {
  private abandonedAt: number | undefined;
  private finished = false;

  constructor(
    private readonly signal: AbortSignal,
    private readonly clock: Clock,
  ) {
    if (signal.aborted) this.abandonedAt = clock.now();
    else signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** When the caller gave up (clock ms), if it did. */
  get gaveUpAt(): number | undefined {
    return this.abandonedAt;
  }

  /** Stops watching; returns the ms worked after the caller gave up. Idempotent (0 after the first call). */
  finish(): number {
    if (this.finished) return 0;
    this.finished = true;
    this.signal.removeEventListener('abort', this.onAbort);
    return this.abandonedAt === undefined ? 0 : Math.max(0, this.clock.now() - this.abandonedAt);
  }

  private readonly onAbort = (): void => {
    this.abandonedAt = this.clock.now();
  };
}
