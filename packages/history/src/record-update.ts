import type pg from 'pg';
import { fromRowWithHashes, toRow, type HistoryRow } from './record-codec';
import type { HistoryRecord, RecordChange } from './types';

const ID = /^[0-9a-f]{32}$/;

/** The row under its HistoryRow names, with its tenant's name, locked until the transaction ends. */
const SELECT_FOR_UPDATE = `SELECT (extract(epoch FROM n.accepted_at) * 1000)::float8 AS "acceptedAt", n.tenant_id AS "tenantId",
  n.finished_ms AS "finishedMs", n.status, n.priority, n.delivered_channel AS "deliveredChannel", n.plan, n.channels, n.reason,
  replace(n.id::text, '-', '') AS id, n.recipient_id AS "recipientId", n.event_id AS "eventId", n.detail, t.name AS tenant
  FROM history_notifications n JOIN history_tenants t ON t.id = n.tenant_id
  WHERE n.id = $1::uuid LIMIT 1 FOR UPDATE OF n`;

/** The columns a later event can change; the key (id, accepted_at) as the insert computed it. */
const UPDATE = `UPDATE history_notifications SET finished_ms = $3, status = $4, delivered_channel = $5, channels = $6, reason = $7, detail = $8
  WHERE id = $1::uuid AND accepted_at = timestamptz 'epoch' + $2 * interval '1 millisecond'`;

/**
 * Reads the archived record `id` (whatever its tenant) with its row locked, lets `change` decide,
 * and stores the record it returns, in one transaction: two events for one notification apply
 * one after the other. Undefined when the history does not hold `id`. A throw from `change` (or
 * a failed write) rolls back and is thrown on.
 */
export async function updateArchivedRecord<T>(pool: pg.Pool, id: string, change: (record: HistoryRecord) => Promise<RecordChange<T>>): Promise<T | undefined> {
  if (!ID.test(id)) return undefined;
  const client = await pool.connect();
  // A checked-out client's error (PostgreSQL gone mid-transaction) is not the pool's to catch: the query rejects with it.
  const onError = () => undefined;
  client.on('error', onError);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<HistoryRow & { tenant: string }>(SELECT_FOR_UPDATE, [id]);
    const found = rows[0];
    if (!found) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const { tenant, ...row } = found;
    const decision = await change({ ...fromRowWithHashes(row), tenant });
    if (decision.record) {
      const next = toRow(decision.record, row.tenantId);
      await client.query(UPDATE, [id, row.acceptedAt, next.finishedMs, next.status, next.deliveredChannel, next.channels, next.reason, next.detail]);
    }
    await client.query('COMMIT');
    return decision.result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: unknown) => {
      broken = rollback instanceof Error ? rollback : new Error(String(rollback));
    });
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
