import { MAX_TIMER_DELAY_MS, type Clock, type Timer, type TimerHandle } from './clock';

/**
 * A deadline's expiry: calls `onExpired` once the clock reaches `expiresAt`. Timers may fire
 * early by a fraction of a ms, and long delays are capped at MAX_TIMER_DELAY_MS: either way the
 * timer re-arms for what is left, so the clock, not the timer, decides.
 *
 * Boundary: a result arriving exactly at `expiresAt` counts as in time (the seed's model
 * treats a step that takes exactly its timeout as answered). The timer therefore re-arms once
 * for 0 ms when it fires on the boundary, letting same-instant completions land first; on a
 * real clock the boundary instant is never hit and this costs nothing.
 */
export class ExpiryTimer {
  private handle: TimerHandle | undefined;
  private graced = false;

  constructor(
    private readonly clock: Clock,
    private readonly timer: Timer,
    private readonly expiresAt: number,
    private readonly onExpired: () => void,
  ) {}

  /** Arms the first wait (the deadline's budget, measured from its start). */
  start(delayMs: number): void {
    this.arm(delayMs);
  }

  /** Stops waiting without calling `onExpired`. Idempotent. */
  clear(): void {
    if (this.handle === undefined) return;
    this.timer.clear(this.handle);
    this.handle = undefined;
  }

  private arm(delayMs: number): void {
    this.handle = this.timer.set(this.fire, Math.min(Math.ceil(delayMs), MAX_TIMER_DELAY_MS));
  }

  private readonly fire = (): void => {
    this.handle = undefined;
    const left = this.expiresAt - this.clock.now();
    if (left > 0) {
      this.arm(left);
      return;
    }
    if (left === 0 && !this.graced) {
      this.graced = true;
      this.arm(0);
      return;
    }
    this.onExpired();
  };
}
