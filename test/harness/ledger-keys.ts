import { providerIdempotencyKey, type Channel } from '@notify/core';

/** One delivery the simulated providers recorded for a key: on which channel, and when (their clock, ms). */
export interface LedgerDelivery {
  channel: Channel;
  at: number;
}

/** Runs `work` over `items` with at most `concurrency` at a time, results in order. */
export async function mapLimited<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, runner));
  return out;
}

/** The deliveries the providers' ledger holds for each notification (its provider idempotency key), in order of `ids`. */
export async function ledgerDeliveries(controlUrl: string, ids: readonly string[]): Promise<LedgerDelivery[][]> {
  return mapLimited(ids, 16, async (id) => {
    const res = await fetch(`${controlUrl}/ledger/keys/${encodeURIComponent(providerIdempotencyKey(id))}`);
    if (!res.ok) throw new Error(`the ledger answered ${res.status} for ${id}`);
    return ((await res.json()) as { deliveries: LedgerDelivery[] }).deliveries;
  });
}
