import { CHANNELS, type AttemptOutcome, type Channel } from '@notify/core';

/** Permission for one external call; `release` reports how it ended (or that it never happened). */
export interface GateTicket {
  /** The provider that must make the call (the first of the channel's providers whose breaker let it through). */
  readonly provider: string;
  release(outcome: AttemptOutcome | 'not-called'): Promise<void>;
}

/**
 * The channel-health seam between the pipeline and the circuit breakers. The pipeline asks
 * before every call and reports every outcome; the breaker decides what counts (transient and
 * unknown do, permanent is neutral). Breakers are per provider; a channel is open only when
 * every one of its providers is.
 */
export interface ChannelGate {
  /** Channels that must not be called now (all their providers open). Cheap: implementations may cache for a moment. */
  openChannels(): Promise<ReadonlySet<Channel>>;
  /**
   * A ticket for one call on the channel's first provider that allows it, or undefined when every breaker refuses.
   * `provider`: only that provider (a reconciliation must go back to the provider that holds the idempotency key).
   * `carries`: only the providers it accepts (those that can carry this notification's address).
   */
  acquire(channel: Channel, provider?: string, carries?: (provider: string) => boolean): Promise<GateTicket | undefined>;
  close(): Promise<void>;
}

/** Each channel's providers in the order they are tried: their names are their breakers' names. */
export type ProviderRoutes = Readonly<Record<Channel, readonly string[]>>;

/** One provider per channel, named after it: the simulators' setup, and the breakers' keys before providers existed. */
export const SINGLE_PROVIDER_ROUTES: ProviderRoutes = Object.fromEntries(CHANNELS.map((c) => [c, [c]])) as Record<Channel, string[]>;

/** Every breaker name in the routes, each once, in channel order. */
export function breakerNames(routes: ProviderRoutes): string[] {
  return [...new Set(CHANNELS.flatMap((c) => routes[c]))];
}

const NO_CHANNELS: ReadonlySet<Channel> = new Set();

/** Breakers disabled: every channel is always callable on its first provider (used to measure what breakers save). */
export function openGate(routes: ProviderRoutes = SINGLE_PROVIDER_ROUTES): ChannelGate {
  return {
    openChannels: async () => NO_CHANNELS,
    acquire: async (channel, provider, carries) => ({
      provider: provider ?? routes[channel].find((p) => carries?.(p) ?? true) ?? routes[channel][0] ?? channel,
      release: async () => undefined,
    }),
    close: async () => undefined,
  };
}

export const OPEN_GATE: ChannelGate = openGate();
