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
