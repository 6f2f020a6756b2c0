/**
 * The simulated providers' ledger as GET <control>/ledger answers it: what they actually did,
 * per idempotency key, across all channels (apps/simulators/src/ledger.ts writes it).
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

/** Reads the ledger from the simulators' control API, bounded by `timeoutMs`. */
export async function readLedger(controlUrl: string, timeoutMs = 5_000): Promise<LedgerSummary> {
  const res = await fetch(`${controlUrl}/ledger`, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`the simulators' ledger answered ${res.status}`);
  return (await res.json()) as LedgerSummary;
}

/** External calls recorded in a ledger, all channels. */
export function ledgerCalls(ledger: LedgerSummary): number {
  return Object.values(ledger.calls).reduce((a, b) => a + b, 0);
}
