import type { HistoryRecord } from '@notify/history';
import {
  CHANNELS,
  type AttemptRecord,
  type Channel,
  type NotificationStatus,
  type NotificationView,
  type Priority,
  type SkipRecord,
  type WaitRecord,
} from '@notify/core';

/** The raw hash fields of a notification record (see lua/intake-9.lua for who writes what). */
export type RecordFields = Record<string, string>;

function jsonArray<T>(raw: string | undefined): T[] {
  if (raw === undefined) return [];
  const value: unknown = JSON.parse(raw);
  // Lua's cjson encodes an empty table as {}: read it back as an empty list.
  return Array.isArray(value) ? (value as T[]) : [];
}

function optionalNumber(raw: string | undefined): number | undefined {
  return raw === undefined ? undefined : Number(raw);
}

/** Every attempt `a:<step>` in step order. */
export function recordAttempts(fields: RecordFields): AttemptRecord[] {
  return Object.keys(fields)
    .filter((k) => k.startsWith('a:'))
    .map((k) => JSON.parse(fields[k] as string) as AttemptRecord)
    .sort((a, b) => a.step - b.step);
}

/** The public view of a record (`GET /v1/notifications/:id`): no addresses, no content. */
export function toNotificationView(fields: RecordFields): NotificationView {
  const acceptedAt = Number(fields.acceptedAt);
  const deliveredAt = optionalNumber(fields.deliveredAt);
  const finishedAt = optionalNumber(fields.finishedAt);
  const expiresAt = optionalNumber(fields.expiresAt);
  const plan = jsonArray<Channel>(fields.plan).filter((c) => (CHANNELS as readonly string[]).includes(c));
  return {
    id: fields.id as string,
    eventId: fields.eventId as string,
    recipientId: fields.recipientId as string,
    priority: fields.priority as Priority,
    status: fields.status as NotificationStatus,
    plan,
    ...(fields.deliveredChannel ? { deliveredChannel: fields.deliveredChannel as Channel } : {}),
    acceptedAt,
    ...(fields.sendAt ? { sendAt: Number(fields.sendAt) } : {}),
    ...(fields.releasedAt ? { releasedAt: Number(fields.releasedAt) } : {}),
    ...(deliveredAt !== undefined ? { deliveredAt, latencyMs: deliveredAt - acceptedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(fields.reason ? { failureReason: fields.reason } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    attempts: recordAttempts(fields),
    skips: jsonArray<SkipRecord>(fields.skips),
    ...(fields.waits ? { waits: jsonArray<WaitRecord>(fields.waits) } : {}),
  };
}

/** A terminal record as the history store keeps it: its view, its tenant and its address hashes (`ah`). */
export function toHistoryRecord(fields: RecordFields): HistoryRecord {
  const addressHashes = fields.ah === undefined ? undefined : (JSON.parse(fields.ah) as HistoryRecord['addressHashes'] | unknown[]);
  return {
    ...toNotificationView(fields),
    tenant: fields.tenant as string,
    // Lua's cjson writes an empty table as {} and a list as []: only a channel -> hash object counts.
    ...(addressHashes && !Array.isArray(addressHashes) ? { addressHashes } : {}),
  };
}
