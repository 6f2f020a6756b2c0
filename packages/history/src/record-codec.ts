import {
  CHANNELS,
  RECORDED_OUTCOMES,
  SKIP_REASONS,
  providerIdempotencyKey,
  type AttemptRecord,
  type Channel,
  type NotificationView,
  type RecordedOutcome,
  type SkipReason,
  type SkipRecord,
} from '@notify/core';
import { ByteReader, ByteWriter } from './byte-writer';
import { channelBit, channelCodes, decodePlan, encodePlan, knownReason, OTHER_REASON, priorityCodes, reasonCode, skipReasonBit, statusCodes } from './codes';
import { jsonEqual } from './json-equal';
import { HASH_BYTES, storedAddressHash, type HistoryRow } from './history-row';
import type { HistoryRecord } from './types';

export { storedAddressHash, type HistoryRow } from './history-row';

/** The detail blob's first byte. */
const COMPACT = 1;
const JSON_FORMAT = 2;
const INT4_MAX = 2_147_483_647;
const DELIVERED = statusCodes.code('delivered');
const outcomeCode = (o: RecordedOutcome | undefined) => (o === undefined ? 0 : RECORDED_OUTCOMES.indexOf(o) + 1);
const ATTEMPT_KEYS = new Set([
  'step',
  'channel',
  'provider',
  'kind',
  'startedAt',
  'finishedAt',
  'durationMs',
  'outcome',
  'spent',
  'errorClass',
  'message',
  'providerMessageId',
  'receipt',
  'receiptAt',
  'receiptDetail',
  'receipts',
]);
const RECEIPT_KEYS = ['receipt', 'receiptAt', 'receiptDetail', 'receipts'] as const;

function offsetMs(at: number | undefined, acceptedAt: number): number {
  if (at === undefined) return -1;
  const d = at - acceptedAt;
  return Number.isSafeInteger(d) && d >= 0 && d <= INT4_MAX ? d : -1;
}

/**
 * The compact detail: attempts, skips, address hashes and an unusual failure reason, as varints
 * relative to acceptedAt (~12 B for a one-attempt delivery, against ~150 B of JSON). It is only
 * used when it reads back exactly (checked on every record by decoding it); anything it cannot
 * express falls back to JSON of the whole record, so a read-back is always complete.
 */
const writer = new ByteWriter();

function encodeCompact(r: HistoryRecord, storedHashes: Partial<Record<Channel, string>> | undefined): Buffer | undefined {
  if (r.attempts.length > 10_000 || r.skips.length > 10_000) return undefined;
  const w = writer.reset();
  w.u8(COMPACT);
  w.varint(r.attempts.length);
  for (const a of r.attempts) {
    if (!Object.keys(a).every((k) => ATTEMPT_KEYS.has(k))) return undefined;
    if (!(CHANNELS as readonly string[]).includes(a.channel) || !(RECORDED_OUTCOMES as readonly (string | undefined)[]).includes(a.outcome ?? 'delivered'))
      return undefined;
    if (!Number.isSafeInteger(a.step) || a.step < 0 || !Number.isSafeInteger(a.startedAt)) return undefined;
    if (a.finishedAt !== undefined && !Number.isSafeInteger(a.finishedAt)) return undefined;
    if (a.durationMs !== undefined && !(Number.isSafeInteger(a.durationMs) && a.durationMs >= 0)) return undefined;
    const spent = a.spent === undefined ? 0 : a.spent ? 2 : 1;
    w.u8(channelCodes.code(a.channel) | (a.kind === 'reconcile' ? 4 : 0) | (outcomeCode(a.outcome) << 3) | (spent << 6));
    w.u8(
      (a.finishedAt !== undefined ? 1 : 0) |
        (a.durationMs !== undefined ? 2 : 0) |
        (a.errorClass !== undefined ? 4 : 0) |
        (a.message !== undefined ? 8 : 0) |
        // The provider: 16 = named after its channel (the default simulator: no bytes), 32 = its name follows.
        (a.provider === undefined ? 0 : a.provider === a.channel ? 16 : 32) |
        // 64: the provider's message id follows (one byte when it is the notification's idempotency key, as the simulators answer).
        (a.providerMessageId !== undefined ? 64 : 0) |
        // 128: receipts follow (rare: JSON).
        (RECEIPT_KEYS.some((k) => a[k] !== undefined) ? 128 : 0),
    );
    w.varint(a.step);
    w.svarint(a.startedAt - r.acceptedAt);
    if (a.finishedAt !== undefined) w.svarint(a.finishedAt - a.startedAt);
    if (a.durationMs !== undefined) w.varint(a.durationMs);
    if (a.errorClass !== undefined) w.str(a.errorClass);
    if (a.message !== undefined) w.str(a.message);
    if (a.provider !== undefined && a.provider !== a.channel) w.str(a.provider);
    if (a.providerMessageId !== undefined) {
      if (a.providerMessageId === providerIdempotencyKey(r.id)) w.u8(0);
      else {
        w.u8(1);
        w.str(a.providerMessageId);
      }
    }
    if (RECEIPT_KEYS.some((k) => a[k] !== undefined)) w.str(JSON.stringify(Object.fromEntries(RECEIPT_KEYS.map((k) => [k, a[k]]))));
  }
  w.varint(r.skips.length);
  for (const s of r.skips) {
    const reason = SKIP_REASONS.indexOf(s.reason);
    if (reason < 0 || !(CHANNELS as readonly string[]).includes(s.channel) || !Number.isSafeInteger(s.at)) return undefined;
    w.u8(channelCodes.code(s.channel) | (reason << 2));
    w.svarint(s.at - r.acceptedAt);
  }
  // The stored hashes (128 bits of each sha256, as 32 hex characters) as 16 bytes each; any other text: JSON.
  let mask = 0;
  CHANNELS.forEach((c, i) => {
    if (storedHashes?.[c] !== undefined) mask |= 1 << i;
  });
  w.u8(mask);
  for (const c of CHANNELS) {
    const h = storedHashes?.[c];
    if (h !== undefined && !w.hex(h, HASH_BYTES)) return undefined;
  }
  if (reasonCode(r.failureReason) === OTHER_REASON) w.str(r.failureReason as string);
  return w.done();
}

function decodeCompact(detail: Buffer, acceptedAt: number, reason: number, id: string) {
  const rd = new ByteReader(detail);
  rd.u8();
  const attempts: AttemptRecord[] = [];
  for (let n = rd.varint(); n > 0; n--) {
    const a = rd.u8();
    const flags = rd.u8();
    const step = rd.varint();
    const startedAt = acceptedAt + rd.svarint();
    const attempt: AttemptRecord = { step, channel: channelCodes.value(a & 3), kind: a & 4 ? 'reconcile' : 'send', startedAt };
    if (flags & 1) attempt.finishedAt = startedAt + rd.svarint();
    if (flags & 2) attempt.durationMs = rd.varint();
    const outcome = (a >> 3) & 7;
    if (outcome !== 0) attempt.outcome = RECORDED_OUTCOMES[outcome - 1];
    const spent = (a >> 6) & 3;
    if (spent !== 0) attempt.spent = spent === 2;
    if (flags & 4) attempt.errorClass = rd.str();
    if (flags & 8) attempt.message = rd.str();
    if (flags & 16) attempt.provider = attempt.channel;
    else if (flags & 32) attempt.provider = rd.str();
    if (flags & 64) attempt.providerMessageId = rd.u8() === 0 ? providerIdempotencyKey(id) : rd.str();
    if (flags & 128) {
      const receipts = JSON.parse(rd.str()) as Pick<AttemptRecord, (typeof RECEIPT_KEYS)[number]>;
      for (const k of RECEIPT_KEYS) if (receipts[k] !== undefined) Object.assign(attempt, { [k]: receipts[k] });
    }
    attempts.push(attempt);
  }
  const skips: SkipRecord[] = [];
  for (let n = rd.varint(); n > 0; n--) {
    const b = rd.u8();
    skips.push({ channel: channelCodes.value(b & 3), reason: SKIP_REASONS[b >> 2] as SkipReason, at: acceptedAt + rd.svarint() });
  }
  const mask = rd.u8();
  let addressHashes: Partial<Record<Channel, string>> | undefined;
  CHANNELS.forEach((c, i) => {
    if (!(mask & (1 << i))) return;
    (addressHashes ??= {})[c] = rd.bytes(HASH_BYTES).toString('hex');
  });
  const failureReason = reason === OTHER_REASON ? rd.str() : knownReason(reason);
  return { attempts, skips, addressHashes, failureReason };
}

/** The row columns that hold a record's view (everything but attempts, skips and hashes). */
function viewFromRow(row: HistoryRow, detail: ReturnType<typeof decodeCompact>): NotificationView & { addressHashes?: Partial<Record<Channel, string>> } {
  const finishedAt = row.finishedMs >= 0 ? row.acceptedAt + row.finishedMs : undefined;
  const delivered = row.status === DELIVERED;
  return {
    id: row.id,
    eventId: row.eventId,
    recipientId: row.recipientId,
    priority: priorityCodes.value(row.priority),
    status: statusCodes.value(row.status),
    plan: decodePlan(row.plan),
    ...(row.deliveredChannel !== 0 ? { deliveredChannel: channelCodes.value(row.deliveredChannel) } : {}),
    acceptedAt: row.acceptedAt,
    ...(delivered && finishedAt !== undefined ? { deliveredAt: finishedAt, latencyMs: row.finishedMs } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(detail.failureReason !== undefined ? { failureReason: detail.failureReason } : {}),
    attempts: detail.attempts,
    skips: detail.skips,
    ...(detail.addressHashes ? { addressHashes: detail.addressHashes } : {}),
  };
}

/** The record as the history keeps it: no tenant (a column), address hashes at 128 bits. */
function stored(record: HistoryRecord): Omit<HistoryRecord, 'tenant'> {
  const { tenant: _tenant, ...rest } = record;
  if (!record.addressHashes) return rest;
  const addressHashes: Partial<Record<Channel, string>> = {};
  for (const [c, h] of Object.entries(record.addressHashes) as [Channel, string | undefined][]) if (h !== undefined) addressHashes[c] = storedAddressHash(h);
  return { ...rest, addressHashes };
}

/** The skip reasons a record has at least one skip of, as the `channels` column's high bits. */
function skipBits(skips: readonly SkipRecord[]): number {
  return skips.reduce((m, s) => ((SKIP_REASONS as readonly string[]).includes(s.reason) ? m | skipReasonBit(s.reason) : m), 0);
}

/** A record as its row; `tenantId` from the tenants table. */
export function toRow(record: HistoryRecord, tenantId: number): HistoryRow {
  const plan = encodePlan(record.plan);
  const row: HistoryRow = {
    acceptedAt: record.acceptedAt,
    tenantId,
    finishedMs: offsetMs(record.finishedAt, record.acceptedAt),
    status: statusCodes.code(record.status),
    priority: priorityCodes.code(record.priority),
    deliveredChannel: record.deliveredChannel ? channelCodes.code(record.deliveredChannel) : 0,
    plan: plan ?? 0,
    channels: record.attempts.reduce((m, a) => ((CHANNELS as readonly string[]).includes(a.channel) ? m | channelBit(a.channel) : m), skipBits(record.skips)),
    reason: reasonCode(record.failureReason),
    id: record.id,
    recipientId: record.recipientId,
    eventId: record.eventId,
    detail: Buffer.alloc(0),
  };
  const kept = stored(record);
  const compact = plan === undefined ? undefined : encodeCompact(record, kept.addressHashes);
  if (compact) {
    row.detail = compact;
    const back = viewFromRow(row, decodeCompact(compact, row.acceptedAt, row.reason, row.id));
    if (jsonEqual(back, kept)) return row;
  }
  row.detail = Buffer.concat([Buffer.from([JSON_FORMAT]), Buffer.from(JSON.stringify(kept), 'utf8')]);
  return row;
}

/** The public view of a row (no tenant, no address hashes). */
export function fromRow(row: HistoryRow): NotificationView {
  const { addressHashes: _ah, ...view } = fromRowWithHashes(row);
  return view;
}

/** The view plus the address hashes (what the history keeps). */
export function fromRowWithHashes(row: HistoryRow): NotificationView & { addressHashes?: Partial<Record<Channel, string>> } {
  if (row.detail[0] === JSON_FORMAT) {
    return JSON.parse(row.detail.subarray(1).toString('utf8')) as NotificationView & { addressHashes?: Partial<Record<Channel, string>> };
  }
  return viewFromRow(row, decodeCompact(row.detail, row.acceptedAt, row.reason, row.id));
}
