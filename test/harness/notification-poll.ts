import { Redis } from 'ioredis';
import { isTerminal, notificationKey, type NotificationView } from '@notify/core';
import { toNotificationView } from '@notify/pipeline';
import { waitFor } from '@notify/platform-kit';

/** Reads notification records through `redis` (one pipeline). */
async function readWith(redis: Redis, ids: readonly string[]): Promise<NotificationView[]> {
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hgetall(notificationKey(id));
  const results = (await pipeline.exec()) ?? [];
  return results.map(([error, fields]) => {
    if (error) throw error;
    return toNotificationView(fields as Record<string, string>);
  });
}

/** Reads many notification records straight from Redis (one pipeline), for test assertions. */
export async function readViews(redisUrl: string, ids: readonly string[]): Promise<NotificationView[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    return await readWith(redis, ids);
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until every notification is terminal (delivered, failed or unconfirmed); returns their views.
 * A terminal status only ever moves to another terminal one (delivered -> bounced), so each poll
 * re-reads only the notifications still open, every 50 ms: a single one is seen terminal within a
 * poll, and 2,000 do not cost a full read of every record four times a second while they run.
 * The views returned are one read of all of them, after the last one ended.
 */
export async function waitAllTerminal(redisUrl: string, ids: readonly string[], timeoutMs = 60_000): Promise<NotificationView[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  let open = [...new Set(ids)];
  try {
    await waitFor(
      `${ids.length} notifications terminal`,
      async () => {
        const views = await readWith(redis, open);
        open = open.filter((_, i) => !isTerminal(views[i]!.status));
        return open.length === 0;
      },
      timeoutMs,
      50,
    );
    return await readWith(redis, ids);
  } finally {
    redis.disconnect();
  }
}
