import { NotifyError, allPartitions, dueIndexKey, notificationKey, parkedStubPrefix, type NotificationView, type Priority } from '@notify/core';
import type { ParkedStore } from '@notify/history';
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

/** The bucket key and field of a parked stub (lua/includes/parked-stubs.lua: the id's first 12 bits name the bucket). */
function parkedStub(id: string, partition: number): [string, Buffer] {
  return [`${parkedStubPrefix(partition)}${parseInt(id.slice(0, 3), 16)}`, Buffer.from(id, 'hex')];
}

/**
 * The tenant's parked notifications after `from`, soonest first, `limit + 1` read: only those
 * whose stub is in Redis (a row whose stub is gone is stale: promoted or canceled since).
 */
async function parkedPage(redis: RedisClient, parked: Pick<ParkedStore, 'list'>, tenant: string, filter: ScheduledFilter, from: Position | undefined) {
  const rows = await parked.list(tenant, {
    ...(from ? { after: from } : {}),
    ...(filter.since !== undefined ? { since: filter.since } : {}),
    ...(filter.until !== undefined ? { until: filter.until } : {}),
    ...(filter.recipientId !== undefined ? { recipientId: filter.recipientId } : {}),
    ...(filter.eventId !== undefined ? { eventId: filter.eventId } : {}),
    ...(filter.priority !== undefined ? { priority: filter.priority } : {}),
    limit: filter.limit + 1,
  });
  if (rows.length === 0) return { found: [], horizon: undefined };
  const pipeline = redis.pipeline();
  for (const r of rows) pipeline.hexists(...parkedStub(r.id, r.partition));
  const stubs = (await pipeline.exec()) ?? [];
  const last = rows.at(-1);
  // Rows beyond the last read are unknown: nothing past it can be answered on this page.
  const horizon = rows.length > filter.limit && last ? { at: last.sendAt, id: last.id } : undefined;
  const found = rows.filter((_, i) => stubs[i]?.[1] === 1).map((r) => ({ position: { at: r.sendAt, id: r.id }, view: toNotificationView(r.fields) }));
  return { found, horizon };
}

/**
 * `GET /v1/notifications?status=scheduled`: this tenant's notifications waiting for their
 * `sendAt`, soonest first, read from the partitions' due indexes and (history on) the parked
 * ones in PostgreSQL (the history holds finished notifications only). A page reads at most `SCAN_FACTOR x limit` entries per partition, so a
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
  parked?: Pick<ParkedStore, 'list'>,
): Promise<{ items: NotificationView[]; nextCursor?: string }> {
  const from = filter.cursor ? decode(filter.cursor) : undefined;
  if (filter.channel !== undefined) return { items: [] };
  const scan = filter.limit * SCAN_FACTOR;
  const low = from ? String(from.at) : filter.since !== undefined ? String(filter.since) : '-inf';
  const high = filter.until !== undefined ? `(${filter.until}` : '+inf';
  let horizon: Position | undefined;
  const found: { position: Position; view: NotificationView }[] = [];
  const fromParked = parked ? parkedPage(redis, parked, tenant, filter, from) : undefined;
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
  const park = await fromParked;
  if (park) {
    const seen = new Set(found.map((f) => f.position.id));
    found.push(...park.found.filter((f) => !seen.has(f.position.id)));
    if (park.horizon && (!horizon || before(park.horizon, horizon))) horizon = park.horizon;
  }
  const within = found.filter((f) => !horizon || !before(horizon, f.position)).sort((a, b) => (before(a.position, b.position) ? -1 : 1));
  const page = within.slice(0, filter.limit);
  // More matched than a page: go on after its last. Else everything up to the horizon is here: go on from it.
  const more = within.length > filter.limit ? page.at(-1)?.position : horizon;
  return { items: page.map((f) => f.view), ...(more ? { nextCursor: encode(more) } : {}) };
}
