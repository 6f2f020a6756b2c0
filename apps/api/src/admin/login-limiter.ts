/** Per-client throttle of admin sign-in attempts. */
export interface LoginLimiter {
  /** Milliseconds until this client may try again; 0 when it may now. */
  retryAfterMs(client: string): number;
  fail(client: string): void;
  succeed(client: string): void;
}

export interface LoginLimiterOptions {
  /** Failed attempts allowed per window. @defaultValue 5 */
  maxFailures?: number;
  /** @defaultValue 15 minutes */
  windowMs?: number;
  /** Clients remembered at most (the oldest is forgotten first), so a flood of addresses cannot grow memory. @defaultValue 10_000 */
  maxClients?: number;
  now?: () => number;
}

/**
 * Fixed window of failures per client address, in this process: `maxFailures` wrong keys, then
 * no key is even checked until the window ends. It slows guessing at a form; the keys' own
 * length (32+ characters in production) is what makes guessing hopeless.
 */
export function createLoginLimiter(options: LoginLimiterOptions = {}): LoginLimiter {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const maxClients = options.maxClients ?? 10_000;
  const now = options.now ?? Date.now;
  const clients = new Map<string, { failures: number; since: number }>();

  const current = (client: string) => {
    const entry = clients.get(client);
    if (entry && now() - entry.since >= windowMs) {
      clients.delete(client);
      return undefined;
    }
    return entry;
  };
  return {
    retryAfterMs(client) {
      const entry = current(client);
      return entry && entry.failures >= maxFailures ? entry.since + windowMs - now() : 0;
    },
    fail(client) {
      const entry = current(client) ?? { failures: 0, since: now() };
      entry.failures += 1;
      clients.delete(client); // re-inserted last: Map order is then oldest-first for eviction
      clients.set(client, entry);
      if (clients.size > maxClients) clients.delete(clients.keys().next().value!);
    },
    succeed(client) {
      clients.delete(client);
    },
  };
}
