import { channelBit, priorityCodes, SKIP_BITS_FROM, skipReasonBit, statusCodes } from './codes';
import type { ListKey } from './cursor';
import type { ListFilter } from './types';

/**
 * Columns read back, in HistoryRow's terms; `us` is the exact key for the cursor. The hex id is
 * not aliased `id`: ORDER BY would then sort by the text expression instead of the uuid column.
 */
export const SELECT = `SELECT (extract(epoch FROM accepted_at) * 1000000)::int8::text AS us, tenant_id, finished_ms,
  status, priority, delivered_channel, plan, channels, reason, replace(id::text, '-', '') AS hex_id, recipient_id, event_id, detail
  FROM history_notifications`;

/**
 * The list query of one page (exported for the benchmark's EXPLAIN): newest first by
 * (accepted_at, id), always scoped to the tenant, `after` the previous page's last key.
 */
export function listQuery(
  tenantId: number,
  filter: Omit<ListFilter, 'limit' | 'cursor'>,
  after: ListKey | undefined,
  rows: number,
): { text: string; values: unknown[] } {
  const values: unknown[] = [tenantId];
  const p = (value: unknown) => `$${values.push(value)}`;
  const where = ['tenant_id = $1'];
  // The hash expressions match the indexes' (0001 migration) so the planner can use them; the
  // text comparison after them settles hash collisions.
  if (filter.recipientId !== undefined) {
    const r = p(filter.recipientId);
    where.push(`hashtextextended(recipient_id, tenant_id) = hashtextextended(${r}::text, $1::int8)`, `recipient_id = ${r}`);
  }
  if (filter.eventId !== undefined) {
    const e = p(filter.eventId);
    where.push(`hashtextextended(event_id, tenant_id) = hashtextextended(${e}::text, $1::int8)`, `event_id = ${e}`);
  }
  // Codes are inlined (small integers of ours, never input): `status = 6` then proves the
  // partial index's `status <> 5` at plan time, whatever plan caching the driver does.
  if (filter.status !== undefined) where.push(`status = ${statusCodes.code(filter.status)}`);
  if (filter.priority !== undefined) where.push(`priority = ${priorityCodes.code(filter.priority)}`);
  if (filter.channel !== undefined) where.push(`channels & ${channelBit(filter.channel)} <> 0`);
  // The first bound proves the partial index history_skipped (0002 migration): skips are rare.
  if (filter.skipReason !== undefined) where.push(`channels >= ${1 << SKIP_BITS_FROM}`, `channels & ${skipReasonBit(filter.skipReason)} <> 0`);
  if (filter.since !== undefined) where.push(`accepted_at >= timestamptz 'epoch' + ${p(filter.since)}::float8 * interval '1 millisecond'`);
  if (filter.until !== undefined) where.push(`accepted_at < timestamptz 'epoch' + ${p(filter.until)}::float8 * interval '1 millisecond'`);
  if (after) {
    const at = `timestamptz 'epoch' + ${p(after.acceptedAtUs)}::int8 * interval '1 microsecond'`;
    // The plain bound lets the time index range-scan; the row comparison breaks ties by id.
    where.push(`accepted_at <= ${at}`, `(accepted_at, id) < (${at}, ${p(after.id)}::uuid)`);
  }
  return {
    text: `${SELECT} WHERE ${where.join(' AND ')} ORDER BY history_notifications.accepted_at DESC, history_notifications.id DESC LIMIT ${p(rows)}`,
    values,
  };
}
