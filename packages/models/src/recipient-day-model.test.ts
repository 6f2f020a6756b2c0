import { runRecipientDay } from './recipient-day-model';

describe('runRecipientDay (suppression over a day of repeated recipients)', () => {
  const plain = runRecipientDay();
  const suppressed = runRecipientDay({ suppression: true });

  it('splits the seed-sized run into recipients of up to 6 notifications (BI2)', () => {
    expect(plain.recipients).toBe(17362);
    expect(plain.notifications).toBe(104167);
    expect(plain.suppressionEntries).toBe(0);
  });

  it('cuts calls per notification from 1.074 to 1.041 with identical deliveries', () => {
    expect(plain.externalCalls).toBe(111895);
    expect(suppressed.externalCalls).toBe(108486);
    expect(plain.callsPerNotification.toFixed(3)).toBe('1.074');
    expect(suppressed.callsPerNotification.toFixed(3)).toBe('1.041');
    expect(suppressed.delivered).toBe(plain.delivered);
    expect(suppressed.suppressionEntries).toBe(771);
  });

  it('also shortens delivery: the skipped call no longer costs a pause', () => {
    expect(plain.meanDeliverySeconds?.toFixed(2)).toBe('2.22');
    expect(suppressed.meanDeliverySeconds?.toFixed(2)).toBe('1.24');
  });

  it('saves nothing when every recipient gets one notification', () => {
    const once = { notifications: 2000, perRecipient: 1 };
    expect(runRecipientDay({ ...once, suppression: true }).externalCalls).toBe(runRecipientDay(once).externalCalls);
  });

  it('rejects bad sizes', () => {
    expect(() => runRecipientDay({ perRecipient: 0 })).toThrow(RangeError);
    expect(() => runRecipientDay({ notifications: 2.5 })).toThrow(RangeError);
  });
});
