import type { Redis } from 'ioredis';
import { readBreakerSnapshots, SINGLE_PROVIDER_ROUTES, type BreakerState, type ProviderRoutes } from '@notify/pipeline';

export interface StateChange {
  at: number;
  state: BreakerState;
}

/**
 * Samples one provider's breaker from Redis every `intervalMs` and keeps the changes: the
 * operator's view (a half-open lasting less than one interval may not show). Breakers are per
 * provider; a channel without a PROVIDERS_FILE entry has one, named after the channel.
 */
export function watchBreaker(redis: Redis, provider: string, routes: ProviderRoutes = SINGLE_PROVIDER_ROUTES, intervalMs = 50) {
  const changes: StateChange[] = [];
  let last: BreakerState | undefined;
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const snapshot = (await readBreakerSnapshots(redis, routes)).find((s) => s.provider === provider);
        if (snapshot && snapshot.state !== last) {
          changes.push({ at: snapshot.at, state: snapshot.state });
          last = snapshot.state;
        }
      } catch {
        // Redis busy or away for a moment: the next sample catches up.
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    changes,
    async stop(): Promise<StateChange[]> {
      running = false;
      await loop;
      return changes;
    },
  };
}

/** ms from `downAt` to the first open, and from `upAt` to the first closed after it (undefined: never). */
export function breakerTimes(changes: readonly StateChange[], downAt: number, upAt: number): { openedAfterMs?: number; closedAfterMs?: number; opens: number } {
  const opened = changes.find((c) => c.state === 'open' && c.at >= downAt);
  const closed = changes.find((c) => c.state === 'closed' && c.at >= upAt);
  return {
    ...(opened ? { openedAfterMs: opened.at - downAt } : {}),
    ...(closed && opened ? { closedAfterMs: closed.at - upAt } : {}),
    opens: changes.filter((c) => c.state === 'open').length,
  };
}
