import type { AttemptOutcome, Channel } from '@notify/core';

/** Permission for one external call; `release` reports how it ended (or that it never happened). */
export interface GateTicket {
  release(outcome: AttemptOutcome | 'not-called'): Promise<void>;
}

/**
 * The channel-health seam between the pipeline and the circuit breakers. The pipeline asks
 * before every call and reports every outcome; the breaker decides what counts (transient and
 * unknown do, permanent is neutral).
 */
export interface ChannelGate {
  /** Channels that must not be called now. Cheap: implementations may cache for a moment. */
  openChannels(): Promise<ReadonlySet<Channel>>;
  /** A ticket for one call, or undefined when the breaker refuses (open, or no probe slot). */
  acquire(channel: Channel): Promise<GateTicket | undefined>;
  close(): Promise<void>;
}

const NO_CHANNELS: ReadonlySet<Channel> = new Set();
const FREE_TICKET: GateTicket = { release: async () => undefined };

/** Breakers disabled: every channel is always callable (used to measure what breakers save). */
export const OPEN_GATE: ChannelGate = {
  openChannels: async () => NO_CHANNELS,
  acquire: async () => FREE_TICKET,
  close: async () => undefined,
};
