import type { HistoryRow } from './record-codec';

/**
 * PostgreSQL's binary COPY format for history rows (the archiver's fast path): the server only
 * copies fixed-width values and length-prefixed bytes, where the unnest INSERT parses thirteen text
 * arrays, casts each id to uuid and checks each row for a conflict. Column order is COPY_COLUMNS.
 */
export const COPY_COLUMNS =
  'accepted_at, tenant_id, finished_ms, status, priority, delivered_channel, plan, channels, reason, id, recipient_id, event_id, detail';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const FIELDS = 13;
/** 2000-01-01T00:00:00Z (PostgreSQL's timestamp epoch) in µs since the Unix epoch. */
const PG_EPOCH_US = 946_684_800_000_000;
const TWO_32 = 2 ** 32;
/** Per row: field count, 13 lengths, int64 + 2 x int32 + 6 x int2 + 16-byte uuid. */
const FIXED_ROW_BYTES = 2 + FIELDS * 4 + 8 + 2 * 4 + 6 * 2 + 16;

/** The rows as one COPY ... FROM STDIN (FORMAT binary) payload: header, tuples, trailer. */
export function encodeCopyBinary(rows: readonly HistoryRow[]): Buffer {
  let size = SIGNATURE.length + 8 + 2;
  for (const r of rows) size += FIXED_ROW_BYTES + Buffer.byteLength(r.recipientId, 'utf8') + Buffer.byteLength(r.eventId, 'utf8') + r.detail.length;
  const buf = Buffer.allocUnsafe(size);
  let o = SIGNATURE.copy(buf, 0);
  o = buf.writeInt32BE(0, o); // flags
  o = buf.writeInt32BE(0, o); // header extension length
  for (const r of rows) {
    o = buf.writeInt16BE(FIELDS, o);
    // timestamptz: int64 µs since 2000-01-01 (the unnest INSERT rounded ms * 1000 the same way).
    const us = Math.round(r.acceptedAt * 1000) - PG_EPOCH_US;
    const high = Math.floor(us / TWO_32);
    o = buf.writeInt32BE(8, o);
    o = buf.writeInt32BE(high, o);
    o = buf.writeUInt32BE(us - high * TWO_32, o);
    o = buf.writeInt32BE(4, o);
    o = buf.writeInt32BE(r.tenantId, o);
    o = buf.writeInt32BE(4, o);
    o = buf.writeInt32BE(r.finishedMs, o);
    for (const v of [r.status, r.priority, r.deliveredChannel, r.plan, r.channels, r.reason]) {
      o = buf.writeInt32BE(2, o);
      o = buf.writeInt16BE(v, o);
    }
    o = buf.writeInt32BE(16, o);
    o += buf.write(r.id, o, 16, 'hex');
    for (const text of [r.recipientId, r.eventId]) {
      const at = o;
      o += 4;
      const n = buf.write(text, o, 'utf8');
      buf.writeInt32BE(n, at);
      o += n;
    }
    o = buf.writeInt32BE(r.detail.length, o);
    o += r.detail.copy(buf, o);
  }
  o = buf.writeInt16BE(-1, o);
  if (o !== size) throw new Error(`history COPY payload: wrote ${o} bytes, sized ${size}`);
  return buf;
}
