import { z } from 'zod';

/**
 * How a worker process's reminder lanes give way to its urgent lanes (REMINDER_YIELD_*). The
 * lanes are separate queues with separate slots, but one process runs both on one event loop
 * and the same cores: a reminder backlog worked off at full concurrency makes every urgent
 * step wait its turn on a late loop. While urgent work is about, the reminder lanes' slots
 * shrink (AIMD) until the loop is on time again.
 */
export interface ReminderYieldConfig {
  /** Event-loop delay (p90 of one window, ms) above which the reminder lanes give way while urgent work is about; 0 = never. */
  lagTargetMs: number;
  /** The share of its slots a reminder lane keeps at the least, in percent (it never stops). */
  minPercent: number;
  /** How long after the last urgent job started the reminder lanes stay governed, ms; later they get all their slots back at once. */
  holdMs: number;
  /** One window: how often the loop delay is read and the limit reconsidered, ms. */
  intervalMs: number;
}

export const DEFAULT_REMINDER_YIELD: ReminderYieldConfig = { lagTargetMs: 20, minPercent: 10, holdMs: 2_000, intervalMs: 100 };

/**
 * Urgent steps waiting for a slot of their own lane longer than this many lag targets also halve
 * the share: their calls are held up past what the lane's slots explain (Redis or the providers'
 * side slowed by the reminders' traffic). A batch job hands a lane more steps than it has slots,
 * so a short queue is the normal case and says nothing: counting any queue at all would hold the
 * reminder lanes at a tenth of their slots whenever urgent batches flow, and the reminders would
 * fall behind with cores idle.
 */
export const SLOT_WAIT_FACTOR = 5;

/** A window over the target (or urgent steps held up for a slot) halves the share. */
export const YIELD_DECREASE = 0.5;
/** A window on time gives back this share of the slots (from the least to all in under 2 s at 100 ms windows). */
export const YIELD_INCREASE = 0.05;

/** What one window saw. */
export interface YieldSignals {
  now: number;
  /** The event loop's delay over the window (ms). */
  lagMs: number;
  /** Urgent calls holding a slot now, over the process's urgent lanes. */
  urgentInFlight: number;
  /** Urgent steps waiting for a slot of their own lane. */
  urgentQueued: number;
  /** How long the longest-waiting of them has waited, ms (over the process's urgent lanes). */
  urgentWaitMs: number;
}

/**
 * The decision, without clocks or timers (the caller feeds each window's signals): a share in
 * [minPercent/100, 1] of every reminder lane's slots. Urgent work is "about" from an urgent job
 * start (or one in flight or waiting) until `holdMs` after it; outside that the share is 1, so a
 * reminder backlog drains at full concurrency when no urgent traffic competes with it.
 */
export class ReminderYield {
  private current = 1;
  private lastUrgentAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly config: ReminderYieldConfig) {}

  /** The share of its slots each reminder lane may use now. */
  get share(): number {
    return this.current;
  }

  /** An urgent job started (called by the lane as it starts one). */
  urgentStarted(now: number): void {
    this.lastUrgentAt = Math.max(this.lastUrgentAt, now);
  }

  /** One window's decision; returns the new share. */
  tick(signals: YieldSignals): number {
    const { lagTargetMs, minPercent, holdMs } = this.config;
    if (signals.urgentInFlight > 0 || signals.urgentQueued > 0) this.urgentStarted(signals.now);
    const least = Math.min(1, Math.max(0, minPercent / 100));
    if (lagTargetMs <= 0 || signals.now - this.lastUrgentAt > holdMs) this.current = 1;
    else if (signals.lagMs > lagTargetMs || signals.urgentWaitMs > lagTargetMs * SLOT_WAIT_FACTOR)
      this.current = Math.max(least, this.current * YIELD_DECREASE);
    else this.current = Math.min(1, this.current + YIELD_INCREASE);
    return this.current;
  }

  /** A lane of `capacity` slots at the current share: at least one. */
  slotsOf(capacity: number): number {
    return Math.max(1, Math.min(capacity, Math.round(capacity * this.current)));
  }
}

const D = DEFAULT_REMINDER_YIELD;
const int = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** The worker's REMINDER_YIELD_* variables (docs/scheduling.md, "Urgent ahead of a reminder backlog"). */
export const reminderYieldEnvShape = {
  REMINDER_YIELD_LAG_MS: int(D.lagTargetMs, 0, 10_000).describe(
    'While urgent work is about in this worker, its reminder lanes give up slots (halving, down to `REMINDER_YIELD_MIN_PERCENT`) in every window whose event-loop delay (p90) is above this many ms, or whose first urgent step in line has waited five times this for a slot of its lane, and take them back step by step when it is on time. `0` = reminder lanes always use their whole concurrency. Gauge `notify_reminder_lane_limit`.',
  ),
  REMINDER_YIELD_MIN_PERCENT: int(D.minPercent, 1, 100).describe(
    'The least share of its concurrency a reminder lane keeps while it gives way, in percent (at least one slot).',
  ),
  REMINDER_YIELD_HOLD_MS: int(D.holdMs, 0, 600_000).describe(
    'How long after the last urgent job started the reminder lanes stay governed; after it they get their whole concurrency back at once.',
  ),
  REMINDER_YIELD_INTERVAL_MS: int(D.intervalMs, 10, 10_000).describe(
    "One window of the reminder lanes' limit: how often the event-loop delay is read and the limit reconsidered.",
  ),
};

export function toReminderYieldConfig(c: { [K in keyof typeof reminderYieldEnvShape]: number }): ReminderYieldConfig {
  return {
    lagTargetMs: c.REMINDER_YIELD_LAG_MS,
    minPercent: c.REMINDER_YIELD_MIN_PERCENT,
    holdMs: c.REMINDER_YIELD_HOLD_MS,
    intervalMs: c.REMINDER_YIELD_INTERVAL_MS,
  };
}
