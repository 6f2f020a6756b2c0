import { Redis } from 'ioredis';
import { isTerminal, notificationKey, type NotificationView } from '@notify/core';
import { toNotificationView } from '@notify/pipeline';
import { waitFor } from '@notify/platform-kit';

/** Reads many notification records straight from Redis (one pipeline), for test assertions. */
export async function readViews(redisUrl: string, ids: readonly string[]): Promise<NotificationView[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hgetall(notificationKey(id));
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, fields]) => {
      if (error) throw error;
      return toNotificationView(fields as Record<string, string>);
    });
  } finally {
    redis.disconnect();
  }
}

/** Waits until every notification is terminal (delivered, failed or unconfirmed); returns their views. */
export async function waitAllTerminal(redisUrl: string, ids: readonly string[], timeoutMs = 60_000): Promise<NotificationView[]> {
  return waitFor(
    `${ids.length} notifications terminal`,
    async () => {
      const views = await readViews(redisUrl, ids);
      return views.every((v) => isTerminal(v.status)) ? views : undefined;
    },
    timeoutMs,
    250,
  );
}
