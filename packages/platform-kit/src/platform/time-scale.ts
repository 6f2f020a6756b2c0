/** Production values the scale applies to (BI9's 30 s wait; the breaker's 10 s window, 5 s open). */
const PRODUCTION = {
  transientDelayMs: 30_000,
  reconcileDelayMs: 5_000,
  unavailableRetryMs: 5_000,
  breakerWindowMs: 10_000,
  breakerOpenMs: 5_000,
  breakerProbeLeaseMs: 10_000,
  breakerCacheMs: 250,
} as const;

/** Calls take real time whatever the scale: a provider call may take this long. */
const SCALED_PROVIDER_TIMEOUT_MS = 2_000;
/**
 * Re-checks are never sooner than this: a reconcile asks the provider about a call that may
 * still be on the wire, and a faster re-check only burns the machine other processes share.
 */
const MIN_RECHECK_MS = 300;

const scaled = (ms: number, scale: number, min = 1) => String(Math.max(min, Math.round(ms * scale)));

/** The cascade's delays at `scale` x production (0.01: BI9's 30 s -> 300 ms), for the api and the workers' env. */
export function cascadeTimeEnv(scale: number): Record<string, string> {
  return {
    CASCADE_TRANSIENT_DELAY_MS: scaled(PRODUCTION.transientDelayMs, scale),
    CASCADE_PERMANENT_DELAY_MS: '0',
    CASCADE_RECONCILE_DELAY_MS: scaled(PRODUCTION.reconcileDelayMs, scale, MIN_RECHECK_MS),
    CASCADE_UNAVAILABLE_RETRY_MS: scaled(PRODUCTION.unavailableRetryMs, scale, MIN_RECHECK_MS),
    PROVIDER_TIMEOUT_MS: String(SCALED_PROVIDER_TIMEOUT_MS),
  };
}

/** The breakers' periods at `scale` x production, and whether they are on (BREAKER_* env). */
export function breakerTimeEnv(scale: number, enabled: boolean): Record<string, string> {
  return {
    BREAKER_ENABLED: enabled ? 'true' : 'false',
    BREAKER_WINDOW_MS: scaled(PRODUCTION.breakerWindowMs, scale),
    BREAKER_OPEN_MS: scaled(PRODUCTION.breakerOpenMs, scale),
    // Never shorter than a call can take, or a slow probe would lose its lease before answering.
    BREAKER_PROBE_LEASE_MS: scaled(PRODUCTION.breakerProbeLeaseMs, scale, SCALED_PROVIDER_TIMEOUT_MS + 500),
    BREAKER_CACHE_MS: scaled(PRODUCTION.breakerCacheMs, scale),
  };
}
