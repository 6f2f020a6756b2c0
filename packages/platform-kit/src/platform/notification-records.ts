import type { Redis } from 'ioredis';
import { isTerminal, notificationKey, partitionOfId, type NotificationView } from '@notify/core';
import { toNotificationView, type RecordFields } from '@notify/pipeline';

/**
 * Notification records read straight from Redis, for tools and tests that check what the
 * platform did (the chaos scenario's figures, test assertions) without going through the api.
 * Records live in their id's partition: pass the platform's partition count.
 */
const CHUNK = 500;

const recordKey = (id: string, partitions: number) => notificationKey(id, partitionOfId(id, partitions));

/** The views of `ids` in order, `undefined` where no record exists; pipelined in chunks. A Redis error throws. */
export async function readRecordViews(redis: Redis, ids: readonly string[], partitions = 1): Promise<(NotificationView | undefined)[]> {
  const views: (NotificationView | undefined)[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const pipeline = redis.pipeline();
    for (const id of ids.slice(i, i + CHUNK)) pipeline.hgetall(recordKey(id, partitions));
    for (const [error, fields] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      views.push((fields as RecordFields).id ? toNotificationView(fields as RecordFields) : undefined);
    }
  }
  return views;
}

/**
 * Polls until every record of `ids` is terminal (delivered, failed, unconfirmed, or a later
 * terminal status), re-reading only the ones still open every `intervalMs` (a terminal status
 * only moves to another terminal one). A poll that Redis fails is retried at the next interval
 * (a test may have paused Redis). Stops once all ended, at `timeoutMs`, or when `signal` aborts,
 * with how many are still open (a missing record counts as open) and the last error seen.
 */
export async function pollUntilTerminal(
  redis: Redis,
  ids: readonly string[],
  options: { partitions?: number; timeoutMs: number; intervalMs?: number; signal?: AbortSignal },
): Promise<{ open: number; lastError?: Error }> {
  const deadline = Date.now() + options.timeoutMs;
  let open = [...new Set(ids)];
  let lastError: Error | undefined;
  for (;;) {
    try {
      open = await stillOpen(redis, open, options.partitions ?? 1);
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
    }
    if (open.length === 0 || Date.now() >= deadline || options.signal?.aborted) return { open: open.length, ...(lastError ? { lastError } : {}) };
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

async function stillOpen(redis: Redis, ids: string[], partitions: number): Promise<string[]> {
  const statuses: unknown[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const pipeline = redis.pipeline();
    for (const id of ids.slice(i, i + CHUNK)) pipeline.hget(recordKey(id, partitions), 'status');
    for (const [error, status] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      statuses.push(status);
    }
  }
  return ids.filter((_, i) => {
    const status = statuses[i];
    return typeof status !== 'string' || !isTerminal(status as NotificationView['status']);
  });
}
