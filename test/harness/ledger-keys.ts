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

/** Keys per ledger request: the simulators' control plane takes at most 300 at once. */
const KEYS_PER_REQUEST = 300;

/** The deliveries the providers' ledger holds for each notification (its provider idempotency key), in order of `ids`. */
export async function ledgerDeliveries(controlUrl: string, ids: readonly string[]): Promise<LedgerDelivery[][]> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += KEYS_PER_REQUEST) chunks.push(ids.slice(i, i + KEYS_PER_REQUEST).map((id) => providerIdempotencyKey(id)));
  const answers = await mapLimited(chunks, 4, async (keys) => {
    const res = await fetch(`${controlUrl}/ledger/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ keys }) });
    if (!res.ok) throw new Error(`the ledger answered ${res.status} for ${keys.length} keys`);
    return ((await res.json()) as { deliveries: LedgerDelivery[][] }).deliveries;
  });
  return answers.flat();
}
