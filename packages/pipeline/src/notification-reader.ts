import { notificationKey, partitionOfId, type NotificationView } from '@notify/core';
import type { HistoryStore, ParkedStore } from '@notify/history';
import type { RedisClient } from '@notify/runtime';
import { toNotificationView, type RecordFields } from './notification-record';

/** Reads a notification's status for its tenant; another tenant's id reads as not found. `partitions`: PARTITIONS (the id names its partition). */
export async function readNotification(redis: RedisClient, tenant: string, id: string, partitions = 1): Promise<NotificationView | undefined> {
  const fields = (await redis.hgetall(notificationKey(id, partitionOfId(id, partitions)))) as RecordFields;
  if (!fields.id || fields.tenant !== tenant) return undefined;
  return toNotificationView(fields);
}

export interface NotificationLookup {
  /** The notification's view for its tenant: Redis while it is there (in flight, or terminal and not yet archived), else the history. */
  get(tenant: string, id: string): Promise<NotificationView | undefined>;
}

/**
 * `GET /v1/notifications/:id` across the move to history: the full record in Redis first, then
 * the history store, then the parked scheduled ones (PostgreSQL too: a parked body is written
 * before its Redis record goes, and deleted only once the record is back). No gap: the archiver
 * removes a record from Redis only after the history's transaction holding it committed. Without
 * a history store (history off) it reads Redis only.
 */
export function createNotificationLookup(deps: {
  redis: RedisClient;
  history?: Pick<HistoryStore, 'get'> & { parked?: Pick<ParkedStore, 'get'> };
  partitions?: number;
}): NotificationLookup {
  return {
    async get(tenant, id) {
      const found = (await readNotification(deps.redis, tenant, id, deps.partitions)) ?? (await deps.history?.get(tenant, id));
      if (found || !deps.history?.parked) return found;
      const parked = await deps.history.parked.get(id);
      if (parked) return parked.tenant === tenant ? toNotificationView(parked.fields) : undefined;
      // Promoted between the two reads (the row goes only once the record is back): Redis has it again.
      return readNotification(deps.redis, tenant, id, deps.partitions);
    },
  };
}
