import type { RedisClient } from '@notify/runtime';
import type { Channel } from '@notify/core';
import { SINGLE_PROVIDER_ROUTES, type ProviderRoutes } from '../channel-gate';
import { readBreakerStates } from './breaker-scripts';
import type { BreakerState } from './breaker-state';

/** One provider's breaker as an operator sees it (chaos CLI `status`, scenario timelines). */
export interface BreakerSnapshot {
  channel: Channel;
  /** The provider (breakers are per provider; by default one per channel, named after it). */
  provider: string;
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

/** Reads every breaker without changing any (read-states-n: one script, no writes). */
export async function readBreakerSnapshots(redis: RedisClient, routes: ProviderRoutes = SINGLE_PROVIDER_ROUTES): Promise<BreakerSnapshot[]> {
  const entries = (Object.entries(routes) as [Channel, readonly string[]][]).flatMap(([channel, providers]) =>
    providers.map((provider) => ({ channel, provider })),
  );
  const { now, breakers } = await readBreakerStates(
    redis,
    entries.map((e) => e.provider),
  );
  return entries.map(({ channel, provider }) => {
    const r = breakers[provider]!;
    return {
      channel,
      provider,
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
