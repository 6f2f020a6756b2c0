import { parseReceipt } from './receipt';
import { ReceiptTracker } from './receipt-tracker';

describe('SMPP delivery receipts', () => {
  it('reads the appendix B text: id, final stat, done date as UTC', () => {
    const text = 'id:0A1B2C sub:001 dlvrd:001 submit date:2611301230 done date:261130123405 stat:DELIVRD err:000 text:Hello';
    expect(parseReceipt({ text })).toEqual({
      providerMessageId: '0A1B2C',
      state: 'delivered',
      at: Date.UTC(2026, 10, 30, 12, 34, 5),
      detail: 'stat:DELIVRD err:000',
    });
    expect(parseReceipt({ text: 'id:9 stat:EXPIRED err:000' }, 5)).toMatchObject({ state: 'expired', at: 5 });
    expect(parseReceipt({ text: 'id:9 stat:REJECTD err:0b' })).toMatchObject({ state: 'undeliverable', detail: 'stat:REJECTD err:0b' });
  });

  it('prefers the receipted_message_id and message_state TLVs', () => {
    expect(parseReceipt({ text: 'id:123 stat:DELIVRD', receiptedMessageId: 'abc', messageState: 5 })).toMatchObject({
      providerMessageId: 'abc',
      state: 'undeliverable',
    });
    expect(parseReceipt({ receiptedMessageId: 'abc', messageState: 3 })).toMatchObject({ state: 'expired', detail: 'stat:EXPIRED' });
  });

  it('ignores receipts that are not final or name no message', () => {
    expect(parseReceipt({ text: 'id:1 stat:ENROUTE' })).toBeUndefined();
    expect(parseReceipt({ text: 'id:1 stat:ACCEPTD' })).toBeUndefined();
    expect(parseReceipt({ receiptedMessageId: '1', messageState: 1 })).toBeUndefined();
    expect(parseReceipt({ text: 'stat:DELIVRD' })).toBeUndefined();
  });

  it('reports a multi-part message once: delivered when every part is, undeliverable at the first failed part', () => {
    const tracker = new ReceiptTracker();
    tracker.track('a1', 3, ['a1', 'a2', 'a3']);
    tracker.track('b1', 2, ['b1', 'b2']);
    const receipt = (id: string, state: 'delivered' | 'undeliverable') => ({ providerMessageId: id, state, at: 1, detail: '' });
    expect(tracker.settle(receipt('a2', 'delivered'))).toBeUndefined();
    expect(tracker.settle(receipt('a1', 'delivered'))).toBeUndefined();
    expect(tracker.settle(receipt('a3', 'delivered'))).toMatchObject({ providerMessageId: 'a1', state: 'delivered' });
    expect(tracker.settle(receipt('b2', 'undeliverable'))).toMatchObject({ providerMessageId: 'b1', state: 'undeliverable' });
    expect(tracker.settle(receipt('b1', 'delivered'))).toMatchObject({ providerMessageId: 'b1', state: 'delivered' }); // forgotten: passes through
    expect(tracker.settle(receipt('zz', 'delivered'))).toMatchObject({ providerMessageId: 'zz' });
    const pending = tracker.track('pending:n-1', 2, ['c1']);
    expect(tracker.settle(receipt('c1', 'delivered'))).toBeUndefined();
    tracker.addPart(pending, 'c2');
    expect(tracker.settle(receipt('c2', 'delivered'))).toMatchObject({ providerMessageId: 'pending:n-1', state: 'delivered' });
    const refused = tracker.track('pending:n-2', 1, []);
    expect(tracker.fail(refused, { state: 'undeliverable', at: 1, detail: 'late' })).toMatchObject({ providerMessageId: 'pending:n-2' });
    expect(tracker.fail(refused, { state: 'undeliverable', at: 1, detail: 'late' })).toBeUndefined();
  });
});
