import { z } from 'zod';

/** How the cascade spends its budget and time. Every value is configurable (tests scale time down). */
export interface CascadeConfig {
  /** BI8: at most this many external calls per notification. */
  budget: number;
  /** BI9: wait after a transient error before the next channel (30 s in production). */
  transientDelayMs: number;
  /** Wait after a permanent error: none by default, the next channel cannot be hurt by it. */
  permanentDelayMs: number;
  /** Wait before re-sending with the same key after an unknown outcome (lets a slow send finish). */
  reconcileDelayMs: number;
  /** Re-check interval while every channel of the plan is unavailable. */
  unavailableRetryMs: number;
  /** A notification that cannot reach any channel for this long after acceptance fails. */
  maxAgeMs: number;
  /** How long a permanent failure suppresses (recipient, channel); 0 turns suppression off. */
  suppressionTtlSeconds: number;
  /** SMS parts at most (each costs money). */
  smsMaxSegments: number;
}

export const DEFAULT_CASCADE_CONFIG: CascadeConfig = {
  budget: 3,
  transientDelayMs: 30_000,
  permanentDelayMs: 0,
  reconcileDelayMs: 5_000,
  unavailableRetryMs: 5_000,
  maxAgeMs: 3_600_000,
  suppressionTtlSeconds: 30 * 24 * 3_600,
  smsMaxSegments: 3,
};

const ms = (fallback: number, max: number) => z.coerce.number().int().min(0).max(max).default(fallback);
const D = DEFAULT_CASCADE_CONFIG;

/** The cascade's variables (the worker's; CASCADE_BUDGET is shared with the api's intake). */
export const cascadeEnvShape = {
  CASCADE_TRANSIENT_DELAY_MS: ms(D.transientDelayMs, 86_400_000).describe('Wait before the next attempt after a transient error (BI9).'),
  CASCADE_PERMANENT_DELAY_MS: ms(D.permanentDelayMs, 86_400_000).describe('Wait before the next channel after a permanent error.'),
  CASCADE_RECONCILE_DELAY_MS: ms(D.reconcileDelayMs, 86_400_000).describe('Wait before reconciling an unknown outcome with its provider.'),
  CASCADE_UNAVAILABLE_RETRY_MS: ms(D.unavailableRetryMs, 86_400_000).describe('Re-check interval while a reconciliation waits out an open breaker.'),
  CASCADE_MAX_AGE_MS: ms(D.maxAgeMs, 7 * 86_400_000).describe('A notification older than this stops trying.'),
  CASCADE_SUPPRESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(D.suppressionTtlSeconds)
    .describe("How long a permanent error suppresses a recipient's channel; 0 turns it off."),
  SMS_MAX_SEGMENTS: z.coerce.number().int().min(1).max(10).default(D.smsMaxSegments).describe('Longest SMS, in segments.'),
};

type CascadeEnv = { [K in keyof typeof cascadeEnvShape]: z.infer<(typeof cascadeEnvShape)[K]> } & { CASCADE_BUDGET: number };

export function toCascadeConfig(c: CascadeEnv): CascadeConfig {
  return {
    budget: c.CASCADE_BUDGET,
    transientDelayMs: c.CASCADE_TRANSIENT_DELAY_MS,
    permanentDelayMs: c.CASCADE_PERMANENT_DELAY_MS,
    reconcileDelayMs: c.CASCADE_RECONCILE_DELAY_MS,
    unavailableRetryMs: c.CASCADE_UNAVAILABLE_RETRY_MS,
    maxAgeMs: c.CASCADE_MAX_AGE_MS,
    suppressionTtlSeconds: c.CASCADE_SUPPRESSION_TTL_SECONDS,
    smsMaxSegments: c.SMS_MAX_SEGMENTS,
  };
}
