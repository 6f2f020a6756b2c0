import type { BenchTarget } from './bench-target';
import { percentile } from '@notify/platform-kit';

export interface FirstTry {
  /** Urgent notifications read back. */
  count: number;
  /** Of those, delivered by their first call. */
  firstTryShare: number | null;
  /** Accepted → delivered (the record's acceptedAt → deliveredAt), first call succeeded. */
  p50Ms: number | null;
  p99Ms: number | null;
  /** The same p99 per `bucketSeconds` of acceptance time, from the earliest read back: where in the run the tail was. */
  byAcceptance: { fromSeconds: number; count: number; p99Ms: number | null }[];
}

interface View {
  status?: string;
  acceptedAt?: number;
  latencyMs?: number;
  attempts?: unknown[];
}

/**
 * Reads back an evenly spread sample of the window's urgent notifications through the status
 * API (GET /v1/notifications/:id, wherever the record lives) after the drain: the latency of
 * those delivered by their first call, accepted → delivered, as the platform recorded it.
 */
export async function sampleUrgentFirstTry(target: BenchTarget, ids: readonly string[], size: number, bucketSeconds = 15): Promise<FirstTry> {
  const step = Math.max(1, ids.length / Math.max(1, size));
  const picked: string[] = [];
  for (let i = 0; i < ids.length && picked.length < size; i += step) picked.push(ids[Math.floor(i)] as string);
  const latencies: number[] = [];
  const timed: { at: number; ms: number }[] = [];
  let read = 0;
  let cursor = 0;
  const reader = async () => {
    while (cursor < picked.length) {
      const id = picked[cursor++] as string;
      const res = await fetch(`${target.apiUrl}/v1/notifications/${id}`, { headers: { authorization: `Bearer ${target.apiKey}` } });
      if (!res.ok) {
        await res.arrayBuffer();
        continue;
      }
      const view = (await res.json()) as View;
      read += 1;
      if (view.status === 'delivered' && view.attempts?.length === 1 && typeof view.latencyMs === 'number') {
        latencies.push(view.latencyMs);
        if (typeof view.acceptedAt === 'number') timed.push({ at: view.acceptedAt, ms: view.latencyMs });
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, reader));
  const first = Math.min(...timed.map((t) => t.at));
  const buckets = new Map<number, number[]>();
  for (const t of timed) {
    const from = Math.floor((t.at - first) / 1000 / bucketSeconds) * bucketSeconds;
    buckets.set(from, [...(buckets.get(from) ?? []), t.ms]);
  }
  return {
    byAcceptance: [...buckets.entries()]
      .sort(([a], [b]) => a - b)
      .map(([fromSeconds, ms]) => ({ fromSeconds, count: ms.length, p99Ms: percentile(ms, 99) ?? null })),
    count: read,
    firstTryShare: read > 0 ? latencies.length / read : null,
    p50Ms: percentile(latencies, 50) ?? null,
    p99Ms: percentile(latencies, 99) ?? null,
  };
}
