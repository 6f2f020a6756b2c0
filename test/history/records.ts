import { createHash } from 'node:crypto';
import type { HistoryRecord } from '@notify/history';

/** A 32-hex id derived from a label (notification ids are 32 hex characters). */
export function idOf(label: string): string {
  return createHash('sha256').update(label).digest('hex').slice(0, 32);
}

/** A delivered push notification accepted at `acceptedAt`; override anything. */
export function delivered(tenant: string, label: string, acceptedAt: number, overrides: Partial<HistoryRecord> = {}): HistoryRecord {
  return {
    tenant,
    id: idOf(`${tenant}/${label}`),
    eventId: `event-${label}`,
    recipientId: `recipient-${label}`,
    priority: 'urgent',
    status: 'delivered',
    plan: ['push', 'sms', 'email'],
    deliveredChannel: 'push',
    acceptedAt,
    deliveredAt: acceptedAt + 140,
    latencyMs: 140,
    finishedAt: acceptedAt + 140,
    attempts: [
      { step: 1, channel: 'push', kind: 'send', startedAt: acceptedAt + 12, finishedAt: acceptedAt + 139, durationMs: 127, outcome: 'delivered', spent: true },
    ],
    skips: [],
    addressHashes: { push: createHash('sha256').update(`push-token-${label}`).digest('hex') },
    ...overrides,
  };
}

/** A failed notification: a transient push error, sms skipped (breaker open), a permanent e-mail refusal. */
export function failed(tenant: string, label: string, acceptedAt: number, overrides: Partial<HistoryRecord> = {}): HistoryRecord {
  const { deliveredAt: _d, latencyMs: _l, deliveredChannel: _c, ...base } = delivered(tenant, label, acceptedAt);
  return {
    ...base,
    status: 'failed',
    finishedAt: acceptedAt + 31_000,
    failureReason: 'all-channels-permanent',
    attempts: [
      {
        step: 1,
        channel: 'push',
        kind: 'send',
        startedAt: acceptedAt + 10,
        finishedAt: acceptedAt + 510,
        durationMs: 500,
        outcome: 'transient',
        spent: true,
        errorClass: 'http-503',
        message: 'provider answered 503',
      },
      {
        step: 2,
        channel: 'email',
        kind: 'send',
        startedAt: acceptedAt + 30_500,
        finishedAt: acceptedAt + 30_900,
        durationMs: 400,
        outcome: 'permanent',
        spent: true,
        errorClass: 'http-422',
        message: 'mailbox does not exist',
      },
    ],
    skips: [{ channel: 'sms', reason: 'breaker-open', at: acceptedAt + 30_400 }],
    ...overrides,
  };
}

/** What the store reads back for a record: its view, without the tenant and the address hashes. */
export function viewOf(record: HistoryRecord): Omit<HistoryRecord, 'tenant' | 'addressHashes'> {
  const { tenant: _t, addressHashes: _a, ...view } = record;
  return view;
}
