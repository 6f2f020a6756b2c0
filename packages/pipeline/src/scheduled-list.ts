import { NotifyError, allPartitions, dueIndexKey, notificationKey, type NotificationView, type Priority } from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import { toNotificationView, type RecordFields } from './notification-record';

export interface ScheduledFilter {
  recipientId?: string;
  /** A channel called on: a scheduled notification has made no call, so none matches. */
  channel?: string;
  eventId?: string;
  priority?: Priority;
  since?: number;
  until?: number;
  limit: number;
  cursor?: string;
}

/** Entries read per partition and page, as a multiple of the limit (other tenants' entries share the index). */
const SCAN_FACTOR = 4;

interface Position {
  at: number;
  id: string;
}

const before = (a: Position, b: Position) => a.at < b.at || (a.at === b.at && a.id < b.id);
const encode = (p: Position) => Buffer.from(`${p.at}:${p.id}`).toString('base64url');

function decode(cursor: string): Position {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split(':');
  if (!at || !id || !/^\d{1,15}$/.test(at) || !/^[0-9a-f]{32}$/.test(id)) {
    throw new NotifyError('VALIDATION_FAILED', 'invalid cursor', { details: [{ field: 'cursor', reason: 'must be a nextCursor of a previous page' }] });
  }
  return { at: Number(at), id };
}

/**
 * `GET /v1/notifications?status=scheduled`: this tenant's notifications waiting for their
 * `sendAt`, soonest first, read from the partitions' due indexes (the history holds finished
 * notifications only). A page reads at most `SCAN_FACTOR x limit` entries per partition, so a
 * tenant with few scheduled among many is answered in bounded time: the page may then be short
 * (even empty) with a `nextCursor` to go on from, never skipping one. `since`/`until` bound the
 * sendAt here (there is no acceptance order in the index). Entries due in one millisecond
 * beyond that read per partition cannot be paged through (narrow with `since`/`until`).
 */
export async function listScheduled(
  redis: RedisClient,
  partitions: number,
  tenant: string,
  filter: ScheduledFilter,
): Promise<{ items: NotificationView[]; nextCursor?: string }> {
  const from = filter.cursor ? decode(filter.cursor) : undefined;
  if (filter.channel !== undefined) return { items: [] };
  const scan = filter.limit * SCAN_FACTOR;
  const low = from ? String(from.at) : filter.since !== undefined ? String(filter.since) : '-inf';
  const high = filter.until !== undefined ? `(${filter.until}` : '+inf';
  let horizon: Position | undefined;
  const found: { position: Position; view: NotificationView }[] = [];
  await Promise.all(
    allPartitions(partitions).map(async (p) => {
      const flat = await redis.zrangebyscore(dueIndexKey(p), low, high, 'WITHSCORES', 'LIMIT', 0, scan);
      const entries: Position[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) entries.push({ id: flat[i] as string, at: Number(flat[i + 1]) });
      const last = entries.at(-1);
      // A full read may have more beyond: nothing past its last entry can be answered on this page.
      if (entries.length === scan && last && (!horizon || before(last, horizon))) horizon = last;
      const fresh = entries.filter((e) => !from || before(from, e));
      if (fresh.length === 0) return;
      const pipeline = redis.pipeline();
      for (const e of fresh) pipeline.hgetall(notificationKey(e.id, p));
      const rows = (await pipeline.exec()) ?? [];
      fresh.forEach((position, i) => {
        const fields = rows[i]?.[1] as RecordFields | undefined;
        if (!fields?.id || fields.tenant !== tenant || fields.status !== 'scheduled') return;
        if (filter.recipientId !== undefined && fields.recipientId !== filter.recipientId) return;
        if (filter.eventId !== undefined && fields.eventId !== filter.eventId) return;
        if (filter.priority !== undefined && fields.priority !== filter.priority) return;
        found.push({ position, view: toNotificationView(fields) });
      });
    }),
  );
  const within = found.filter((f) => !horizon || !before(horizon, f.position)).sort((a, b) => (before(a.position, b.position) ? -1 : 1));
  const page = within.slice(0, filter.limit);
  // More matched than a page: go on after its last. Else everything up to the horizon is here: go on from it.
  const more = within.length > filter.limit ? page.at(-1)?.position : horizon;
  return { items: page.map((f) => f.view), ...(more ? { nextCursor: encode(more) } : {}) };
}
