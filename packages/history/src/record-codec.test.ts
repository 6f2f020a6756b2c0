import fc from 'fast-check';
import { CANCELED_REASON, CHANNELS, EXPIRED_REASON, PRIORITIES, RECEIPT_KINDS, RECORDED_OUTCOMES, SKIP_REASONS, TERMINAL_STATUSES } from '@notify/core';
import { channelBit, SKIP_BITS_FROM, skipReasonBit } from './codes';
import { fromRowWithHashes, toRow } from './record-codec';
import type { HistoryRecord } from './types';

const T0 = Date.UTC(2026, 0, 1);
const channel = fc.constantFrom(...CHANNELS);
const offset = fc.integer({ min: 0, max: 3 * 86_400_000 });
const attempt = fc.record(
  {
    step: fc.integer({ min: 1, max: 40 }),
    channel,
    // Named after the channel (the default simulator) or any configured name.
    provider: fc.oneof(channel, fc.constantFrom('sms-a', 'email-smtp', 'push-fcm-b'), fc.string()),
    // The simulators answer the idempotency key (a placeholder: the record's id is filled in below), real providers their own ids.
    providerMessageId: fc.oneof(fc.constant('notify-<id>'), fc.string()),
    receipt: fc.constantFrom(...RECEIPT_KINDS),
    receiptAt: offset.map((o) => T0 + o),
    receiptDetail: fc.string({ maxLength: 100 }),
    receipts: fc.array(fc.record({ kind: fc.constantFrom(...RECEIPT_KINDS), at: offset.map((o) => T0 + o), detail: fc.string({ maxLength: 50 }) }), {
      maxLength: 3,
    }),
    kind: fc.constantFrom('send' as const, 'reconcile' as const),
    startedAt: offset.map((o) => T0 + o),
    finishedAt: offset.map((o) => T0 + o),
    durationMs: fc.oneof(fc.integer({ min: 0, max: 120_000 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
    outcome: fc.constantFrom(...RECORDED_OUTCOMES),
    spent: fc.boolean(),
    errorClass: fc.string(),
    message: fc.string({ unit: 'grapheme', maxLength: 300 }),
  },
  { requiredKeys: ['step', 'channel', 'kind', 'startedAt'] },
);
const record: fc.Arbitrary<HistoryRecord> = fc
  .record(
    {
      tenant: fc.string({ minLength: 1 }),
      id: fc.stringMatching(/^[0-9a-f]{32}$/),
      eventId: fc.string({ minLength: 1 }),
      recipientId: fc.string({ minLength: 1 }),
      priority: fc.constantFrom(...PRIORITIES),
      status: fc.constantFrom(...TERMINAL_STATUSES),
      plan: fc.uniqueArray(channel, { maxLength: 3 }),
      deliveredChannel: channel,
      acceptedAt: fc.constant(T0),
      deliveredAt: offset.map((o) => T0 + o),
      finishedAt: offset.map((o) => T0 + o),
      failureReason: fc.oneof(fc.constantFrom('budget-exhausted', 'all-channels-permanent', CANCELED_REASON, EXPIRED_REASON), fc.string()),
      expiresAt: offset.map((o) => T0 + o),
      attempts: fc.array(attempt, { maxLength: 6 }),
      skips: fc.array(fc.record({ channel, reason: fc.constantFrom(...SKIP_REASONS), at: offset.map((o) => T0 + o) }), { maxLength: 4 }),
      addressHashes: fc.dictionary(channel, fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string())),
    },
    { requiredKeys: ['tenant', 'id', 'eventId', 'recipientId', 'priority', 'status', 'plan', 'acceptedAt', 'attempts', 'skips'] },
  )
  .map((r) => (r.deliveredAt === undefined ? r : { ...r, latencyMs: r.deliveredAt - r.acceptedAt }))
  .map((r) => ({ ...r, attempts: r.attempts.map((a) => (a.providerMessageId === 'notify-<id>' ? { ...a, providerMessageId: `notify-${r.id}` } : a)) }));

describe('record codec', () => {
  test('every record reads back as written, address hashes at 128 bits (compact when it can, verbatim JSON otherwise)', () => {
    fc.assert(
      fc.property(record, (r) => {
        const { tenant: _t, ...expected } = r;
        if (r.addressHashes)
          expected.addressHashes = Object.fromEntries(Object.entries(r.addressHashes).map(([c, h]) => [c, /^[0-9a-f]{64}$/.test(h) ? h.slice(0, 32) : h]));
        expect(fromRowWithHashes(toRow(r, 7))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  test('the channels column holds a bit per attempted channel, and in its high byte a bit per skip reason present', () => {
    fc.assert(
      fc.property(record, (r) => {
        const { channels } = toRow(r, 7);
        for (const c of CHANNELS) expect((channels & channelBit(c)) !== 0).toBe(r.attempts.some((a) => a.channel === c));
        for (const reason of SKIP_REASONS) expect((channels & skipReasonBit(reason)) !== 0).toBe(r.skips.some((s) => s.reason === reason));
        expect(channels >= 1 << SKIP_BITS_FROM).toBe(r.skips.length > 0);
        expect(channels).toBeLessThanOrEqual(32_767);
      }),
      { numRuns: 300 },
    );
  });

  test('a record that waited out quiet hours keeps its waits (the compact form has none: the JSON form holds them)', () => {
    const r: HistoryRecord = {
      tenant: 't',
      id: 'cd'.repeat(16),
      eventId: 'e',
      recipientId: 'r',
      priority: 'reminder',
      status: 'failed',
      plan: ['email'],
      acceptedAt: T0,
      finishedAt: T0 + 9_000,
      failureReason: 'budget-exhausted',
      attempts: [],
      skips: [],
      waits: [{ reason: 'quiet-hours', at: T0 + 5, until: T0 + 8_000 }],
    };
    const { tenant: _t, ...expected } = r;
    expect(fromRowWithHashes(toRow(r, 1))).toEqual(expected);
  });

  test('a usual delivery is compact: a one-attempt push delivery (default provider, its message id the idempotency key) with its address hash in under 30 bytes', () => {
    const r: HistoryRecord = {
      tenant: 't',
      id: 'ab'.repeat(16),
      eventId: 'e',
      recipientId: 'r',
      priority: 'urgent',
      status: 'delivered',
      plan: ['push', 'sms'],
      deliveredChannel: 'push',
      acceptedAt: T0,
      deliveredAt: T0 + 150,
      latencyMs: 150,
      finishedAt: T0 + 150,
      attempts: [
        {
          step: 1,
          channel: 'push',
          provider: 'push',
          kind: 'send',
          startedAt: T0 + 3,
          finishedAt: T0 + 149,
          durationMs: 146,
          outcome: 'delivered',
          spent: true,
          providerMessageId: `notify-${'ab'.repeat(16)}`,
        },
      ],
      skips: [],
      addressHashes: { push: 'cd'.repeat(32) },
    };
    const row = toRow(r, 1);
    expect(row.detail[0]).toBe(1);
    expect(row.detail.length).toBeLessThan(30);
  });
});
