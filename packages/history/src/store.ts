import type { NotificationView } from '@notify/core';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { COPY_COLUMNS, encodeCopyBinary } from './copy-binary';
import { decodeCursor, encodeCursor, type ListKey } from './cursor';
import { listQuery, SELECT } from './list-query';
import { runMigrations } from './migrate';
import { createPool } from './pool';
import { dayOf, ensurePartitions, maintain } from './partitions';
import { fromRow, toRow, type HistoryRow } from './record-codec';
import { updateArchivedRecord } from './record-update';
import { createParkedStore, type ParkedStore } from './parked-store';
import { TenantIds } from './tenant-ids';
import type { HistoryOptions, HistoryRecord, HistoryStore, ListFilter, ListPage, RecordChange } from './types';

const ID = /^[0-9a-f]{32}$/;

interface DbRow {
  us: string;
  tenant_id: number;
  finished_ms: number;
  status: number;
  priority: number;
  delivered_channel: number;
  plan: number;
  channels: number;
  reason: number;
  hex_id: string;
  recipient_id: string;
  event_id: string;
  detail: Buffer;
}

function rowOf(r: DbRow): HistoryRow {
  return {
    acceptedAt: Number(r.us) / 1000,
    tenantId: r.tenant_id,
    finishedMs: r.finished_ms,
    status: r.status,
    priority: r.priority,
    deliveredChannel: r.delivered_channel,
    plan: r.plan,
    channels: r.channels,
    reason: r.reason,
    id: r.hex_id,
    recipientId: r.recipient_id,
    eventId: r.event_id,
    detail: r.detail,
  };
}

/** One multi-row INSERT of any batch size: one array parameter per column, unnested server-side. */
const INSERT = `INSERT INTO history_notifications (accepted_at, tenant_id, finished_ms, status, priority,
  delivered_channel, plan, channels, reason, id, recipient_id, event_id, detail)
  SELECT timestamptz 'epoch' + a * interval '1 millisecond', t, f, s, p, dc, pl, ch, r, i::uuid, rc, ev, dt
  FROM unnest($1::float8[], $2::int4[], $3::int4[], $4::int2[], $5::int2[], $6::int2[], $7::int2[],
    $8::int2[], $9::int2[], $10::text[], $11::text[], $12::text[], $13::bytea[])
    AS u(a, t, f, s, p, dc, pl, ch, r, i, rc, ev, dt)
  ON CONFLICT DO NOTHING`;

const COPY = `COPY history_notifications (${COPY_COLUMNS}) FROM STDIN (FORMAT binary)`;
/** A session's staging table (the 'staging' insert method): emptied at each commit. */
const STAGING = `CREATE TEMP TABLE IF NOT EXISTS history_staging (LIKE history_notifications) ON COMMIT DELETE ROWS`;
const STAGING_COPY = `COPY history_staging (${COPY_COLUMNS}) FROM STDIN (FORMAT binary)`;
const STAGING_INSERT = `INSERT INTO history_notifications (${COPY_COLUMNS}) SELECT ${COPY_COLUMNS} FROM history_staging ON CONFLICT DO NOTHING`;
const UNIQUE_VIOLATION = '23505';

const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;

/**
 * Resolves on the stream's 'finish', which pg-copy-streams emits after ReadyForQuery: a COPY
 * outside a transaction block has committed by then. The stream keeps a listener of its own: an
 * error it emits after the pipeline settled (the connection lost late) must not end the process.
 */
async function copyIn(client: pg.PoolClient, statement: string, payload: Buffer): Promise<void> {
  const copy = client.query(copyFrom(statement));
  copy.on('error', () => undefined);
  await pipeline(Readable.from([payload]), copy);
}

class PgHistoryStore implements HistoryStore {
  private readonly days = new Set<number>();
  private readonly tenants: TenantIds;
  readonly parked: ParkedStore;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: HistoryOptions,
  ) {
    this.tenants = new TenantIds(pool);
    this.parked = createParkedStore(pool);
  }

  async insertBatch(records: readonly HistoryRecord[]): Promise<void> {
    if (records.length === 0) return;
    for (const r of records) if (!ID.test(r.id)) throw new Error(`history: notification id must be 32 lowercase hex characters, got ${JSON.stringify(r.id)}`);
    const missing = new Set(records.map((r) => dayOf(r.acceptedAt)).filter((d) => !this.days.has(d)));
    if (missing.size > 0) for (const d of await ensurePartitions(this.pool, missing)) this.days.add(d);
    const ids = await this.tenants.resolve(
      records.map((r) => r.tenant),
      true,
    );
    const rows = records.map((r) => toRow(r, ids.get(r.tenant) as number));
    const method = this.options.insertMethod ?? 'copy';
    if (method === 'unnest') return this.insertUnnest(this.pool, rows);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      if (method === 'staging') return await this.insertStaging(client, rows);
      // One COPY is one transaction: all rows or none. A row stored before (a batch repeated after
      // a crash between the commit and the compact, or after a lease ran out) fails the whole
      // COPY with a unique violation, and the batch goes again through the idempotent INSERT.
      try {
        await copyIn(client, COPY, encodeCopyBinary(rows));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        await this.insertUnnest(client, rows);
      }
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** COPY into the session's staging table, then INSERT ... SELECT ... ON CONFLICT DO NOTHING: one transaction. */
  private async insertStaging(client: pg.PoolClient, rows: readonly HistoryRow[]): Promise<void> {
    await client.query('BEGIN');
    try {
      await client.query(STAGING);
      await copyIn(client, STAGING_COPY, encodeCopyBinary(rows));
      await client.query(STAGING_INSERT);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** One multi-row INSERT ... ON CONFLICT DO NOTHING (one statement: one transaction). */
  private async insertUnnest(db: pg.Pool | pg.PoolClient, rows: readonly HistoryRow[]): Promise<void> {
    const col = <K extends keyof HistoryRow>(k: K) => rows.map((r) => r[k]);
    await db.query(INSERT, [
      col('acceptedAt'),
      col('tenantId'),
      col('finishedMs'),
      col('status'),
      col('priority'),
      col('deliveredChannel'),
      col('plan'),
      col('channels'),
      col('reason'),
      col('id'),
      col('recipientId'),
      col('eventId'),
      col('detail'),
    ]);
  }

  async get(tenant: string, id: string): Promise<NotificationView | undefined> {
    if (!ID.test(id)) return undefined;
    const tenantId = (await this.tenants.resolve([tenant], false)).get(tenant);
    if (tenantId === undefined) return undefined;
    const { rows } = await this.pool.query<DbRow>(`${SELECT} WHERE id = $1::uuid AND tenant_id = $2 LIMIT 1`, [id, tenantId]);
    return rows[0] ? fromRow(rowOf(rows[0])) : undefined;
  }

  async list(tenant: string, filter: ListFilter): Promise<ListPage> {
    const after: ListKey | undefined = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
    const limit = Math.max(1, Math.floor(filter.limit));
    const tenantId = (await this.tenants.resolve([tenant], false)).get(tenant);
    if (tenantId === undefined) return { items: [] };
    const { text, values } = listQuery(tenantId, filter, after, limit + 1);
    const { rows } = await this.pool.query<DbRow>(text, values);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => fromRow(rowOf(r))),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor({ acceptedAtUs: Number(last.us), id: last.hex_id }) } : {}),
    };
  }

  update<T>(id: string, change: (record: HistoryRecord) => Promise<RecordChange<T>>): Promise<T | undefined> {
    return updateArchivedRecord(this.pool, id, change);
  }

  async maintainPartitions(nowMs: number): Promise<void> {
    const { kept } = await maintain(this.pool, nowMs, this.options.retentionDays, this.options.partitionsAhead ?? 3);
    this.days.clear();
    for (const d of kept) this.days.add(d);
  }

  async ping(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const query = this.pool.query('SELECT 1');
    if (!signal) {
      await query;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      query.then(() => resolve(), reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Runs the migrations (advisory lock, idempotent), creates today's partitions and returns the store. */
export async function openHistoryStore(options: HistoryOptions): Promise<HistoryStore> {
  const applicationName = options.applicationName ?? 'notify-history';
  await runMigrations(options.url, applicationName);
  const pool = createPool({ connectionString: options.url, max: options.poolSize ?? 4, application_name: applicationName });
  const store = new PgHistoryStore(pool, options);
  try {
    await store.maintainPartitions(Date.now());
  } catch (error) {
    await pool.end();
    throw error;
  }
  return store;
}
