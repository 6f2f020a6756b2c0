import type { Redis } from 'ioredis';
import { notificationKey, type NotificationView } from '@notify/core';
import { toNotificationView, type RecordFields } from './notification-record';

/** Reads a notification's status for its tenant; another tenant's id reads as not found. */
export async function readNotification(redis: Redis, tenant: string, id: string): Promise<NotificationView | undefined> {
  const fields = (await redis.hgetall(notificationKey(id))) as RecordFields;
  if (!fields.id || fields.tenant !== tenant) return undefined;
  return toNotificationView(fields);
}
