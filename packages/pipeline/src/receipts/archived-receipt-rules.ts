import type { AttemptRecord, NotificationStatus } from '@notify/core';
import type { HistoryRecord } from '@notify/history';
import type { ProviderEvent } from './receipt-types';

/** The history keeps every receipt; a runaway provider cannot grow a record without bound. */
const MAX_RECEIPTS = 20;

export interface ArchivedChange {
  record: HistoryRecord;
  before: NotificationStatus;
  after: NotificationStatus;
  /** A hard bounce or a complaint: (recipient, channel) is to be suppressed. */
  hard: boolean;
}

/**
 * apply-receipt-4.lua's rules for a record the archiver moved to the history (every status
 * there is terminal): the receipt is recorded on `attempt`; a hard bounce or complaint turns
 * `delivered` / `unconfirmed` into `bounced` / `complained`; a late `delivered` for an unknown
 * outcome settles `unconfirmed` as delivered, a late `undeliverable` / `expired` as failed.
 */
export function applyToArchived(record: HistoryRecord, attempt: AttemptRecord, event: ProviderEvent, now: number): ArchivedChange {
  const at = Math.round(event.at ?? now);
  const detail = (event.detail ?? '').slice(0, 200);
  const entry: NonNullable<AttemptRecord['receipts']>[number] = { kind: event.kind, at };
  if (detail !== '') entry.detail = detail;
  if (event.kind === 'bounced') entry.bounceType = event.bounceType ?? 'hard';
  const receipts = [...(attempt.receipts ?? [])];
  if (receipts.length < MAX_RECEIPTS) receipts.push(entry);
  const { receiptDetail: _previous, ...rest } = attempt;
  const changed: AttemptRecord = { ...rest, receipts, receipt: event.kind, receiptAt: at, ...(detail !== '' ? { receiptDetail: detail } : {}) };

  const before = record.status;
  let next: HistoryRecord = { ...record, attempts: record.attempts.map((a) => (a === attempt ? changed : a)) };
  const hard = event.kind === 'complained' || (event.kind === 'bounced' && event.bounceType !== 'soft');
  if (hard && (before === 'delivered' || before === 'unconfirmed')) {
    const bounced = event.kind === 'bounced';
    next = { ...next, status: bounced ? 'bounced' : 'complained', failureReason: bounced ? 'hard-bounce' : 'complaint' };
  } else if (event.kind === 'delivered' && attempt.outcome === 'unknown' && before === 'unconfirmed') {
    const { failureReason: _reason, ...settled } = next;
    next = { ...settled, status: 'delivered', deliveredChannel: attempt.channel, deliveredAt: at, latencyMs: at - record.acceptedAt, finishedAt: now };
  } else if ((event.kind === 'undeliverable' || event.kind === 'expired') && attempt.outcome === 'unknown' && before === 'unconfirmed') {
    next = { ...next, status: 'failed', failureReason: `receipt-${event.kind}` };
  }
  return { record: next, before, after: next.status, hard };
}
