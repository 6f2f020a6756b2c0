import { Pool } from 'undici';

export interface OpenLoopOptions {
  apiUrl: string;
  apiKey: string;
  ratePerSecond: number;
  seconds: number;
  /** Send every `tickMs` one batch request with the notifications due in that tick. */
  tickMs: number;
  mode: 'batch' | 'single';
  next: () => Record<string, unknown>;
  /** Stop sending new work when this many requests are unanswered (protects the client). */
  maxInFlight: number;
}

export interface OpenLoopResult {
  offered: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  failed: number;
  seconds: number;
  requestLatenciesMs: number[];
  skippedForBackpressure: number;
}

/**
 * Open loop: work is offered on a clock, whether or not earlier requests were answered, so a
 * slow system shows up as latency and backlog rather than as a politely slower client.
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  // One connection per request allowed in flight: the client must not be the bottleneck it measures.
  const pool = new Pool(options.apiUrl, { connections: options.maxInFlight, pipelining: 1 });
  const result: OpenLoopResult = { offered: 0, accepted: 0, duplicates: 0, rejected: 0, failed: 0, seconds: 0, requestLatenciesMs: [], skippedForBackpressure: 0 };
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  const endAt = started + options.seconds * 1_000;
  let due = 0;

  const send = async (items: Record<string, unknown>[]) => {
    const t0 = performance.now();
    try {
      const single = options.mode === 'single';
      const response = await pool.request({
        path: single ? '/v1/notifications' : '/v1/notifications/batch',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify(single ? items[0] : { notifications: items }),
      });
      const body = (await response.body.json()) as { accepted?: number; duplicates?: number; rejected?: number };
      if (single) {
        if (response.statusCode === 202) result.accepted += 1;
        else if (response.statusCode === 200) result.duplicates += 1;
        else result.rejected += 1;
      } else if (response.statusCode === 200) {
        result.accepted += body.accepted ?? 0;
        result.duplicates += body.duplicates ?? 0;
        result.rejected += body.rejected ?? 0;
      } else {
        result.failed += items.length;
      }
    } catch {
      result.failed += items.length;
    } finally {
      result.requestLatenciesMs.push(performance.now() - t0);
    }
  };

  while (performance.now() < endAt) {
    const elapsed = (performance.now() - started) / 1_000;
    const target = Math.floor(elapsed * options.ratePerSecond);
    const count = target - due;
    due = target;
    if (count > 0) {
      const items = Array.from({ length: count }, options.next);
      result.offered += count;
      const groups = options.mode === 'single' ? items.map((i) => [i]) : chunk(items, 1_000);
      for (const group of groups) {
        if (pending.size >= options.maxInFlight) {
          result.skippedForBackpressure += group.length;
          continue;
        }
        const p = send(group).finally(() => pending.delete(p));
        pending.add(p);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, options.tickMs));
  }
  await Promise.all(pending);
  result.seconds = (performance.now() - started) / 1_000;
  await pool.close();
  return result;
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
