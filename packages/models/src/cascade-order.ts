import { nextCascadeStep } from '@notify/core';
import type { Channel } from './channels';

/**
 * Where the attempt budget goes. The seed compares three layouts:
 * - `single`: every attempt on the preferred channel;
 * - `parallel`: all channels at once (fast, but duplicates);
 * - `cascade`: the preferred channel first, then the others in platform order.
 */
export const LAYOUTS = ['single', 'parallel', 'cascade'] as const;
export type Layout = (typeof LAYOUTS)[number];

export interface OrderOptions {
  /**
   * Channels to leave out without spending a call: an open breaker, or a suppressed
   * (recipient, channel). Skipping is free; a call to a known-broken channel is not.
   */
  readonly skip?: readonly Channel[];
}

/** Preferred channel first, the others in their given order, skipped ones removed. */
export function cascadeOrder(preferred: Channel, channels: readonly Channel[], options: OrderOptions = {}): Channel[] {
  const skip = options.skip ?? [];
  return [preferred, ...channels.filter((c) => c !== preferred)].filter((c) => !skip.includes(c));
}

/**
 * The channels a layout calls, in order, before outcomes are known (at most `budget`).
 * `single` repeats the preferred channel; the others use the cascade order.
 */
export function layoutOrder(layout: Layout, preferred: Channel, channels: readonly Channel[], budget: number, options: OrderOptions = {}): Channel[] {
  if (layout === 'single') {
    const skipped = (options.skip ?? []).includes(preferred);
    return skipped ? [] : Array.from({ length: budget }, () => preferred);
  }
  return cascadeOrder(preferred, channels, options).slice(0, budget);
}

/** One failed call as the cascade remembers it. */
export interface FailedAttempt {
  readonly channel: Channel;
  /** A permanent failure rules the channel out for this notification. */
  readonly permanent: boolean;
}

/**
 * The product's rule for a freed attempt (a skipped channel spent nothing, so budget is left
 * over): the platform's own `nextCascadeStep` from @notify/core, so this model and the worker
 * cannot drift apart. It keeps cycling through the order after the last channel tried, leaving
 * out channels that failed permanently, until `budget` calls are spent. With no skips and as
 * many channels as budget this is exactly the seed's cascade. Undefined when nothing is left.
 */
export function nextCyclicChannel(order: readonly Channel[], failures: readonly FailedAttempt[], budget: number): Channel | undefined {
  const history = failures.map((f) => ({ channel: f.channel, outcome: f.permanent ? ('permanent' as const) : ('transient' as const) }));
  const step = nextCascadeStep(order, history, budget, () => undefined);
  return step.kind === 'send' ? step.channel : undefined;
}
