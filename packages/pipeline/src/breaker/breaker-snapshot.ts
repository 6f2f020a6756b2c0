import type { Redis } from 'ioredis';
import { CHANNELS, type Channel } from '@notify/core';
import { readBreakerStates } from './breaker-scripts';
import type { BreakerState } from './breaker-state';

/** One channel's breaker as an operator sees it (chaos CLI `status`, scenario timelines). */
export interface BreakerSnapshot {
  channel: Channel;
  /** Effective state: an open breaker past its open period reads as half-open. */
  state: BreakerState;
  /** When the current state began (Redis clock, ms); undefined if it never moved. */
  since?: number;
  /** Open only: ms until it lets probes through. */
  reopensInMs?: number;
  /** Half-open only: probe leases not expired. */
  probesInFlight: number;
  /** Closed only: counted calls and failures in the current window. */
  windowCalls: number;
  windowFailures: number;
  /** Redis time of the read (ms). */
  at: number;
}

/** Reads every breaker without changing any (read-states-6: one script, no writes). */
export async function readBreakerSnapshots(redis: Redis): Promise<BreakerSnapshot[]> {
  const { now, channels } = await readBreakerStates(redis);
  return CHANNELS.map((channel) => {
    const r = channels[channel];
    return {
      channel,
      state: r.state,
      at: now,
      ...(r.since !== undefined ? { since: r.since } : {}),
      ...(r.state === 'open' ? { reopensInMs: r.reopensInMs } : {}),
      probesInFlight: r.probesInFlight,
      windowCalls: r.windowCalls,
      windowFailures: r.windowFailures,
    };
  });
}
