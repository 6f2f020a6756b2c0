/**
 * The simulated providers' ledger as their control API answers `GET /ledger`: what they
 * actually did, per idempotency key, across all channels. Written by the simulators, read by
 * the platform kit, the chaos CLI and the tests: one contract, kept here because an app may not
 * import another app and the simulators do not depend on the kit that runs them.
 */
export interface LedgerSummary {
  calls: Record<string, number>;
  outcomes: Record<string, Record<string, number>>;
  /** Distinct idempotency keys with at least one delivery. */
  deliveredKeys: number;
  /** Deliveries in all (a key delivered on two channels counts twice). */
  deliveries: number;
  /** Keys delivered more than once (on any channels): must stay empty. */
  duplicateKeys: string[];
}
