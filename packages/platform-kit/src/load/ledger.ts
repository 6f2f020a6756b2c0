import type { LedgerSummary } from '@notify/core';

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
