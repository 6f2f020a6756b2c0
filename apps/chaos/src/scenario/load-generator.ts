import { Pool } from 'undici';
import type { TrafficItem } from './traffic';

export interface SentNotification {
  item: TrafficItem;
  /** HTTP status of the intake (0 = no answer). */
  status: number;
  id?: string;
  /** When the request was due (ms since the load started) and when it was actually sent. */
  dueMs: number;
  sentMs: number;
  error?: string;
}

export interface LoadOptions {
  apiUrl: string;
  apiKey: string;
  items: readonly TrafficItem[];
  ratePerSecond: number;
  /** Bound on requests in flight; past it the generator waits (and reports the lag). */
  maxInFlight: number;
  signal?: AbortSignal;
  requestTimeoutMs?: number;
}

export interface LoadResult {
  sent: SentNotification[];
  /** Largest delay between a request's due time and its sending (0 = truly open loop). */
  maxLagMs: number;
  durationMs: number;
}

/**
 * Open-loop load: request i is due at i / rate seconds, whatever happened to the earlier ones
 * (a closed loop would slow down with the system and hide its latency). Bounded: at most
 * `maxInFlight` requests at once, and the count is fixed.
 */
export async function runOpenLoopLoad(options: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(options.apiUrl, { connections: options.maxInFlight, keepAliveTimeout: 10_000 });
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const sent: SentNotification[] = [];
  const inFlight = new Set<Promise<void>>();
  let maxLagMs = 0;
  try {
    for (const [i, item] of options.items.entries()) {
      if (options.signal?.aborted) break;
      const dueMs = (i * 1_000) / options.ratePerSecond;
      const wait = dueMs - elapsed();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      while (inFlight.size >= options.maxInFlight) await Promise.race(inFlight);
      const sentMs = elapsed();
      maxLagMs = Math.max(maxLagMs, sentMs - dueMs);
      const task = post(pool, options, item).then((answer) => {
        sent.push({ item, dueMs, sentMs, ...answer });
      });
      const tracked = task.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    }
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  sent.sort((a, b) => a.item.index - b.item.index);
  return { sent, maxLagMs: Math.round(maxLagMs), durationMs: Math.round(elapsed()) };
}

async function post(pool: Pool, options: LoadOptions, item: TrafficItem): Promise<{ status: number; id?: string; error?: string }> {
  try {
    const response = await pool.request({
      path: '/v1/notifications',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
      body: JSON.stringify(item.request),
      headersTimeout: options.requestTimeoutMs ?? 10_000,
      bodyTimeout: options.requestTimeoutMs ?? 10_000,
    });
    const body = (await response.body.json().catch(() => ({}))) as { id?: string; message?: string };
    return { status: response.statusCode, ...(body.id ? { id: body.id } : {}), ...(response.statusCode >= 300 && body.message ? { error: body.message } : {}) };
  } catch (error) {
    return { status: 0, error: error instanceof Error ? error.message : String(error) };
  }
}
