import { z } from 'zod';

/**
 * One circuit breaker per channel, shared by every process through Redis. It trips on a
 * failure RATIO over a sliding time window, never on an absolute count, and only transient
 * and unknown outcomes count as failures (invariant 5: a permanent error belongs to the
 * recipient, not to the channel).
 *
 * Why the defaults are safe against BI5 (push's normal transient rate is 5 %, SMS 2 %,
 * e-mail 1 %):
 * - With at least `minCalls` = 20 calls in the window and a ratio of 0.5, a healthy push
 *   channel opens only if >= 10 of 20 calls fail: P(Binomial(20, 0.05) >= 10) ~ 1.1e-8 per
 *   window at the lowest traffic that can trip it. At the push peak (954.86 calls/s, ~9,500
 *   calls per 10 s window) 50 % is ~200 standard deviations above 5 %. BI5 x3 (15 %) is still
 *   ~96 sigma away at peak (2.5e-4 per window at the 20-call minimum), and a 0.1 % blip moves
 *   the ratio by 0.1 point.
 * - A dead channel fails every call, so the ratio crosses 0.5 once about half of the window
 *   is post-failure: ~4.7 s with a 10 s window (faster under a window with fewer healthy
 *   calls). `minCalls` keeps a quiet channel (a few calls) from opening on 2 failures of 3.
 * - Open 5 s, then up to 3 probes at once: each probe that fails re-opens it for 5 s, so a
 *   dead push costs at most ~3 calls per 5 s instead of ~955 calls/s. Two probe successes
 *   close it: with 5 % transient errors a healthy push re-opens after restore with
 *   P ~ 1 - 0.95^2 = 9.75 % per half-open round, and is probed again 5 s later.
 * - A probe lease lives 10 s, five times the 2 s provider timeout: a probe that answers late
 *   still reports; one whose worker died frees its slot after 10 s instead of wedging half-open.
 */
export interface BreakerConfig {
  /** Off = every channel is always callable (measures what the breakers save). @defaultValue true */
  enabled: boolean;
  /** Sliding window over which the failure ratio is computed. @defaultValue 10000 */
  windowMs: number;
  /** The window is kept as this many time slots (resolution windowMs / slots). @defaultValue 10 */
  windowSlots: number;
  /** No verdict below this many counted calls in the window. @defaultValue 20 */
  minCalls: number;
  /** Opens when failures / counted calls >= this. @defaultValue 0.5 */
  failureRatio: number;
  /** How long an open breaker refuses every call before probing. @defaultValue 5000 */
  openMs: number;
  /** Probe calls allowed at once while half-open. @defaultValue 3 */
  probes: number;
  /** Probe successes that close a half-open breaker (any probe failure re-opens it). @defaultValue 2 */
  probeSuccesses: number;
  /** A probe lease expires after this (its worker died or hung): the slot is freed. @defaultValue 10000 */
  probeLeaseMs: number;
  /**
   * Off the per-call path: each process decides closed/open from a local copy of the states
   * this old (and refreshes it on its own transitions), and reports its folded call outcomes
   * once per channel per this interval (at once when its own failures could trip it). 0 =
   * every call asks Redis (acquire, report). @defaultValue 250
   */
  cacheMs: number;
  /** A breaker call to Redis that takes longer fails open. @defaultValue 500 */
  redisTimeoutMs: number;
}

export const DEFAULT_BREAKER_CONFIG: BreakerConfig = {
  enabled: true,
  windowMs: 10_000,
  windowSlots: 10,
  minCalls: 20,
  failureRatio: 0.5,
  openMs: 5_000,
  probes: 3,
  probeSuccesses: 2,
  probeLeaseMs: 10_000,
  cacheMs: 250,
  redisTimeoutMs: 500,
};

const D = DEFAULT_BREAKER_CONFIG;
const ms = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('true')
  .transform((v) => v === 'true' || v === '1');

/** Env fields of the breakers; the api's and worker's config.ts spread this into their schema. */
export const breakerEnvShape = {
  BREAKER_ENABLED: flag.describe('Off: every channel is always callable (to measure what the breakers save).'),
  BREAKER_WINDOW_MS: ms(D.windowMs, 100, 3_600_000).describe("Sliding window over which a channel's transient-failure ratio is computed."),
  BREAKER_MIN_CALLS: z.coerce.number().int().min(1).max(1_000_000).default(D.minCalls).describe('No verdict below this many counted calls in the window.'),
  BREAKER_FAILURE_RATIO: z.coerce
    .number()
    .gt(0, 'must be above 0')
    .max(1)
    .default(D.failureRatio)
    .describe('Opens when transient failures / counted calls reach this.'),
  BREAKER_OPEN_MS: ms(D.openMs, 10, 3_600_000).describe('How long an open breaker refuses every call before probing.'),
  BREAKER_PROBES: z.coerce.number().int().min(1).max(100).default(D.probes).describe('Probe calls allowed at once while half-open.'),
  BREAKER_PROBE_SUCCESSES: z.coerce.number().int().min(1).max(100).default(D.probeSuccesses).describe('Probe successes that close a half-open breaker.'),
  BREAKER_PROBE_LEASE_MS: ms(D.probeLeaseMs, 10, 3_600_000).describe('A probe whose worker died frees its slot after this.'),
  BREAKER_CACHE_MS: ms(D.cacheMs, 0, 60_000).describe(
    'Each process decides closed/open from a local copy this old and reports its folded call outcomes once per channel per this interval (half-open always asks Redis); `0` = every call asks Redis.',
  ),
  BREAKER_REDIS_TIMEOUT_MS: ms(D.redisTimeoutMs, 10, 60_000).describe('A breaker call to Redis slower than this fails open.'),
};

export type BreakerEnv = { [K in keyof typeof breakerEnvShape]: z.output<(typeof breakerEnvShape)[K]> };

/** The parsed env fields → the breaker config (window slots stay at their default). */
export function toBreakerConfig(env: BreakerEnv): BreakerConfig {
  return {
    enabled: env.BREAKER_ENABLED,
    windowMs: env.BREAKER_WINDOW_MS,
    windowSlots: D.windowSlots,
    minCalls: env.BREAKER_MIN_CALLS,
    failureRatio: env.BREAKER_FAILURE_RATIO,
    openMs: env.BREAKER_OPEN_MS,
    probes: env.BREAKER_PROBES,
    probeSuccesses: env.BREAKER_PROBE_SUCCESSES,
    probeLeaseMs: env.BREAKER_PROBE_LEASE_MS,
    cacheMs: env.BREAKER_CACHE_MS,
    redisTimeoutMs: env.BREAKER_REDIS_TIMEOUT_MS,
  };
}
