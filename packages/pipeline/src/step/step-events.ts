import type { Logger } from 'pino';
import type { AttemptOutcome, Channel, Priority } from '@notify/core';

/** A notification reached a terminal state in a step (or a re-run of that step found it there: `replay`). */
export interface NotificationEnded {
  notificationId: string;
  /** The step job that ended it (a webhook event's id derives from it). */
  step: number;
  priority: Priority;
  /** `canceled` comes from the api's cancel (no step ended it: `step` is the record's current one). */
  status: 'delivered' | 'failed' | 'unconfirmed' | 'expired' | 'canceled' | 'opted-out';
  /** External calls it spent (the cascade depth). */
  calls: number;
  /** When it was accepted (ms), where known: a delivery's latency runs from it. */
  acceptedAt?: number;
  endedAt: number;
  /** Where the step read it anyway: a subscriber then reads no record. */
  tenant?: string;
  /** A re-run found the end already written (its first run died before telling): only `replays` subscribers hear it. */
  replay: boolean;
}

/** An attempt answered without a delivery (the notification goes on, or ends in a later event). */
export interface AttemptFailed {
  notificationId: string;
  step: number;
  channel: Channel;
  outcome: AttemptOutcome;
  tenant?: string;
}

/** Ends a subscription. */
export interface Subscription {
  dispose(): void;
}

/** `replays`: the subscriber is also told of ends a re-run found already written (a publisher, not a counter). */
export interface SubscribeOptions {
  replays?: boolean;
}

interface Listener<T> {
  run: (event: T) => void | Promise<void>;
  replays: boolean;
}

/** One typed event: subscribers run in subscription order; one that throws is logged and never fails the step. */
export class StepEvent<T extends object> {
  private readonly listeners: Listener<T>[] = [];

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
  ) {}

  subscribe(run: (event: T) => void | Promise<void>, options: SubscribeOptions = {}): Subscription {
    const listener = { run, replays: options.replays === true };
    this.listeners.push(listener);
    return {
      dispose: () => {
        const at = this.listeners.indexOf(listener);
        if (at >= 0) this.listeners.splice(at, 1);
      },
    };
  }

  /** Whether a replayed event reaches anyone (a re-run reads the record only then). */
  get hasReplaySubscribers(): boolean {
    return this.listeners.some((l) => l.replays);
  }

  async emit(event: T): Promise<void> {
    for (const listener of [...this.listeners]) {
      if ((event as { replay?: boolean }).replay === true && !listener.replays) continue;
      try {
        await listener.run(event);
      } catch (error) {
        this.logger.warn({ err: error, event: this.name }, 'step event subscriber failed');
      }
    }
  }
}

/** The step path's hooks: metrics, tenant webhooks and anything else subscribe here instead of being called inline. */
export interface StepEvents {
  readonly ended: StepEvent<NotificationEnded>;
  readonly attemptFailed: StepEvent<AttemptFailed>;
}

export function createStepEvents(logger: Logger): StepEvents {
  return { ended: new StepEvent('notification-ended', logger), attemptFailed: new StepEvent('attempt-failed', logger) };
}
