import { eventLoopDelaySampler, type LoopDelaySampler } from '@notify/budget-chain';
import type { Channel } from '@notify/core';
import type { LaneSemaphore } from './lane-semaphore';
import { ReminderYield, type ReminderYieldConfig } from './reminder-yield';

export interface ReminderGovernorOptions {
  config: ReminderYieldConfig;
  /** Per channel of this process: its urgent lane's and its reminder lane's semaphore. */
  lanes: readonly { channel: Channel; urgent: LaneSemaphore; reminder: LaneSemaphore }[];
  /** Told each reminder lane's limit after every window (the `notify_reminder_lane_limit` gauge). */
  onLimit?: (channel: Channel, limit: number) => void;
  /** The event loop's delay per window; default `eventLoopDelaySampler(5)` (p90, as the api's load shedder reads it). */
  sampler?: LoopDelaySampler;
  now?: () => number;
}

/**
 * Runs ReminderYield in a worker process: every window it reads the event loop's delay and the
 * urgent lanes' semaphores, and sets every reminder lane's limit to its share of the lane's
 * concurrency. The reminder jobs BullMQ already handed out wait for a slot in the process; an
 * urgent job never waits for a reminder one (its lane has its own slots).
 */
export class ReminderGovernor {
  private readonly decision: ReminderYield;
  private readonly now: () => number;
  private sampler: LoopDelaySampler | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ReminderGovernorOptions) {
    this.decision = new ReminderYield(options.config);
    this.now = options.now ?? Date.now;
  }

  /** The share of its concurrency each reminder lane has now. */
  get share(): number {
    return this.decision.share;
  }

  /** An urgent job started in this process. */
  urgentStarted(): void {
    this.decision.urgentStarted(this.now());
  }

  start(): void {
    this.report();
    if (this.options.config.lagTargetMs <= 0 || this.timer) return;
    this.sampler = this.options.sampler ?? eventLoopDelaySampler(5);
    this.timer = setInterval(() => this.window(), this.options.config.intervalMs);
    this.timer.unref();
  }

  /** One window: the timer's pass. */
  window(): void {
    const lanes = this.options.lanes;
    this.decision.tick({
      now: this.now(),
      lagMs: this.sampler?.sample() ?? 0,
      urgentInFlight: lanes.reduce((sum, lane) => sum + lane.urgent.inUse, 0),
      urgentQueued: lanes.reduce((sum, lane) => sum + lane.urgent.queued, 0),
      urgentWaitMs: Math.max(0, ...lanes.map((lane) => lane.urgent.longestWaitMs)),
    });
    for (const lane of lanes) lane.reminder.setLimit(this.decision.slotsOf(lane.reminder.capacity));
    this.report();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.sampler?.stop();
    this.sampler = undefined;
  }

  private report(): void {
    for (const lane of this.options.lanes) this.options.onLimit?.(lane.channel, lane.reminder.limit);
  }
}
