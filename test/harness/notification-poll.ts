import { Redis } from 'ioredis';
import type { NotificationView } from '@notify/core';
import { toNotificationView } from '@notify/pipeline';
import { pollUntilTerminal, readRecordViews } from '@notify/platform-kit';

/** The views of `ids` in order (a missing record reads as an empty view), through `redis`. */
async function readWith(redis: Redis, ids: readonly string[]): Promise<NotificationView[]> {
  return (await readRecordViews(redis, ids)).map((view) => view ?? toNotificationView({}));
}

/** Reads many notification records straight from Redis, for test assertions. */
export async function readViews(redisUrl: string, ids: readonly string[]): Promise<NotificationView[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    return await readWith(redis, ids);
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until every notification is terminal (delivered, failed or unconfirmed); returns their
 * views, read once after the last one ended. Polls every 50 ms, re-reading only the ones still
 * open: a single one is seen terminal within a poll, and 2,000 do not cost a full read of every
 * record twenty times a second while they run.
 */
export async function waitAllTerminal(redisUrl: string, ids: readonly string[], timeoutMs = 60_000): Promise<NotificationView[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const { open, lastError } = await pollUntilTerminal(redis, ids, { timeoutMs, intervalMs: 50 });
    if (open > 0) {
      const cause = lastError ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${ids.length} notifications terminal: ${open} still open${cause}`);
    }
    return await readWith(redis, ids);
  } finally {
    redis.disconnect();
  }
}
