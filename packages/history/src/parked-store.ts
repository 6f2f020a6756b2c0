import type pg from 'pg';
import type { Priority } from '@notify/core';

/** A scheduled notification parked out of Redis: its record hash as Redis held it, and where it goes back. */
export interface ParkedRecord {
  id: string;
  partition: number;
  tenant: string;
  eventId: string;
  /** When it is due (ms). */
  sendAt: number;
  /** When its Redis record expires (ms since the epoch, PEXPIRETIME): restored with the same expiry. */
  expireAt: number;
  /** The record hash's fields, exactly as Redis held them. */
  fields: Record<string, string>;
}

/** A tenant's parked notifications after a position (sendAt, id), soonest first (`?status=scheduled`). */
export interface ParkedListFilter {
  after?: { at: number; id: string };
  since?: number;
  until?: number;
  recipientId?: string;
  eventId?: string;
  priority?: Priority;
  limit: number;
}

/** The parked-notifications table (migration 0003-parked); every write idempotent. */
export interface ParkedStore {
  /** Inserts or replaces each row (a record read again after a crash is written again): one statement. */
  put(records: readonly ParkedRecord[]): Promise<void>;
  /** One partition's rows due at or before `untilMs`, soonest first. */
  due(partition: number, untilMs: number, limit: number): Promise<ParkedRecord[]>;
  get(id: string): Promise<ParkedRecord | undefined>;
  /** The ids parked under (tenant, event id): cancel by event. */
  ofEvent(tenant: string, eventId: string): Promise<string[]>;
  list(tenant: string, filter: ParkedListFilter): Promise<ParkedRecord[]>;
  remove(ids: readonly string[]): Promise<void>;
  /** Rows of these partitions (the parked-count gauge). */
  count(partitions: readonly number[]): Promise<number>;
}

interface ParkedRow {
  hex_id: string;
  partition: number;
  tenant: string;
  event_id: string;
  send_at: string;
  expire_at: string;
  record: Record<string, string>;
}

const COLUMNS = `replace(id::text, '-', '') AS hex_id, partition, tenant, event_id, send_at, expire_at, record`;
const ID = /^[0-9a-f]{32}$/;

const fromRow = (r: ParkedRow): ParkedRecord => ({
  id: r.hex_id,
  partition: r.partition,
  tenant: r.tenant,
  eventId: r.event_id,
  sendAt: Number(r.send_at),
  expireAt: Number(r.expire_at),
  fields: r.record,
});

/** The same columns as unnested arrays, one statement for a batch of any size (the history insert's pattern). */
const PUT = `INSERT INTO parked_notifications (send_at, expire_at, partition, id, tenant, event_id, record)
  SELECT s, e, p, i::uuid, t, ev, r FROM unnest($1::int8[], $2::int8[], $3::int4[], $4::text[], $5::text[], $6::text[], $7::jsonb[])
    AS u(s, e, p, i, t, ev, r)
  ON CONFLICT (id) DO UPDATE SET send_at = excluded.send_at, expire_at = excluded.expire_at, partition = excluded.partition,
    tenant = excluded.tenant, event_id = excluded.event_id, record = excluded.record`;

export function createParkedStore(pool: pg.Pool): ParkedStore {
  const select = async (where: string, values: unknown[]) =>
    (await pool.query<ParkedRow>(`SELECT ${COLUMNS} FROM parked_notifications WHERE ${where}`, values)).rows.map(fromRow);
  return {
    async put(records) {
      if (records.length === 0) return;
      for (const r of records) if (!ID.test(r.id)) throw new Error(`parked: notification id must be 32 lowercase hex characters, got ${JSON.stringify(r.id)}`);
      const col = <T>(pick: (r: ParkedRecord) => T) => records.map(pick);
      await pool.query(PUT, [
        col((r) => r.sendAt),
        col((r) => r.expireAt),
        col((r) => r.partition),
        col((r) => r.id),
        col((r) => r.tenant),
        col((r) => r.eventId),
        col((r) => JSON.stringify(r.fields)),
      ]);
    },
    due: (partition, untilMs, limit) => select('partition = $1 AND send_at <= $2 ORDER BY send_at LIMIT $3', [partition, untilMs, limit]),
    async get(id) {
      if (!ID.test(id)) return undefined;
      return (await select('id = $1::uuid', [id]))[0];
    },
    async ofEvent(tenant, eventId) {
      return (await select('tenant = $1 AND event_id = $2', [tenant, eventId])).map((r) => r.id);
    },
    list(tenant, f) {
      const values: unknown[] = [tenant];
      const where = ['tenant = $1'];
      const add = (clause: (n: number) => string, value: unknown) => {
        values.push(value);
        where.push(clause(values.length));
      };
      if (f.after) {
        values.push(f.after.at, f.after.id);
        where.push(`(send_at, id) > ($${values.length - 1}::int8, $${values.length}::uuid)`);
      }
      if (f.since !== undefined) add((n) => `send_at >= $${n}`, f.since);
      if (f.until !== undefined) add((n) => `send_at < $${n}`, f.until);
      if (f.eventId !== undefined) add((n) => `event_id = $${n}`, f.eventId);
      if (f.recipientId !== undefined) add((n) => `record->>'recipientId' = $${n}`, f.recipientId);
      if (f.priority !== undefined) add((n) => `record->>'priority' = $${n}`, f.priority);
      values.push(f.limit);
      return select(`${where.join(' AND ')} ORDER BY send_at, id LIMIT $${values.length}`, values);
    },
    async remove(ids) {
      if (ids.length === 0) return;
      await pool.query('DELETE FROM parked_notifications WHERE id = ANY($1::uuid[])', [ids]);
    },
    async count(partitions) {
      const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM parked_notifications WHERE partition = ANY($1::int4[])', [partitions]);
      return Number(rows[0]?.n ?? 0);
    },
  };
}

/** No parked notifications (the history off, or a store double): reads find none; parking is refused. */
export function emptyParkedStore(): ParkedStore {
  return {
    put: () => Promise.reject(new Error('parking needs the history (PostgreSQL)')),
    due: () => Promise.resolve([]),
    get: () => Promise.resolve(undefined),
    ofEvent: () => Promise.resolve([]),
    list: () => Promise.resolve([]),
    remove: () => Promise.resolve(),
    count: () => Promise.resolve(0),
  };
}
