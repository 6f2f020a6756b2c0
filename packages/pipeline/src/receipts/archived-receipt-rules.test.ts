import type { HistoryRecord } from '@notify/history';
import { applyToArchived } from './archived-receipt-rules';

const base = (fields: Partial<HistoryRecord>): HistoryRecord => ({
  id: 'a'.repeat(32),
  tenant: 't',
  eventId: 'e',
  recipientId: 'r',
  priority: 'urgent',
  status: 'delivered',
  plan: ['sms'],
  acceptedAt: 1_000,
  attempts: [{ step: 1, channel: 'sms', provider: 'sms', kind: 'send', startedAt: 1_000, outcome: 'delivered', providerMessageId: 'm' }],
  skips: [],
  ...fields,
});
const event = { provider: 'sms', providerMessageId: 'm', eventId: 'x' };

describe('applyToArchived (apply-receipt-4.lua for a row in the history)', () => {
  it('a hard bounce turns delivered into bounced and keeps the delivery; a soft one is only recorded', () => {
    const record = base({ deliveredChannel: 'sms', deliveredAt: 1_100, finishedAt: 1_100 });
    const hard = applyToArchived(record, record.attempts[0]!, { ...event, kind: 'bounced', at: 5_000, detail: 'user unknown' }, 9_000);
    expect(hard).toMatchObject({ before: 'delivered', after: 'bounced', hard: true });
    expect(hard.record).toMatchObject({ status: 'bounced', failureReason: 'hard-bounce', deliveredChannel: 'sms', deliveredAt: 1_100 });
    expect(hard.record.attempts[0]).toMatchObject({ outcome: 'delivered', receipt: 'bounced', receiptAt: 5_000, receiptDetail: 'user unknown' });
    expect(hard.record.attempts[0]!.receipts).toEqual([{ kind: 'bounced', at: 5_000, detail: 'user unknown', bounceType: 'hard' }]);
    const soft = applyToArchived(record, record.attempts[0]!, { ...event, kind: 'bounced', bounceType: 'soft', at: 5_000 }, 9_000);
    expect(soft).toMatchObject({ after: 'delivered', hard: false });
  });

  it('a late delivery receipt settles unconfirmed as delivered; a late undeliverable one as failed', () => {
    const unknown = base({ status: 'unconfirmed', failureReason: 'unknown-outcome-budget-exhausted' });
    unknown.attempts[0]!.outcome = 'unknown';
    const delivered = applyToArchived(unknown, unknown.attempts[0]!, { ...event, kind: 'delivered', at: 4_000 }, 9_000);
    expect(delivered.record).toMatchObject({ status: 'delivered', deliveredChannel: 'sms', deliveredAt: 4_000, latencyMs: 3_000, finishedAt: 9_000 });
    expect(delivered.record.failureReason).toBeUndefined();
    const failed = applyToArchived(unknown, unknown.attempts[0]!, { ...event, kind: 'expired', at: 4_000 }, 9_000);
    expect(failed.record).toMatchObject({ status: 'failed', failureReason: 'receipt-expired' });
  });

  it('keeps at most 20 receipts on an attempt', () => {
    const record = base({});
    record.attempts[0]!.receipts = Array.from({ length: 20 }, (_, i) => ({ kind: 'delivered' as const, at: i }));
    const next = applyToArchived(record, record.attempts[0]!, { ...event, kind: 'delivered', at: 99 }, 100);
    expect(next.record.attempts[0]!.receipts).toHaveLength(20);
    expect(next.record.attempts[0]!.receiptAt).toBe(99);
  });
});
