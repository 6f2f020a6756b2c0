import { notificationId, payloadFingerprint, recipientHash, stableStringify } from './identity';
import { notificationRequestSchema } from './schemas';

describe('identity', () => {
  it('derives the id from (tenant, event, recipient) only, unambiguously', () => {
    const id = notificationId('t', 'e', 'r');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(notificationId('t', 'e', 'r')).toBe(id);
    expect(notificationId('t2', 'e', 'r')).not.toBe(id);
    expect(notificationId('a|b', 'c', 'r')).not.toBe(notificationId('a', 'b|c', 'r'));
    expect(recipientHash('t', 'r')).not.toBe(recipientHash('t2', 'r'));
  });

  it('fingerprints payloads independently of key order, but not of values', () => {
    expect(stableStringify({ b: 1, a: [{ y: 2, x: 1 }] })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    expect(payloadFingerprint({ a: 1, b: 2 })).toBe(payloadFingerprint({ b: 2, a: 1 }));
    expect(payloadFingerprint({ a: 1 })).not.toBe(payloadFingerprint({ a: 2 }));
  });
});

describe('notification request schema', () => {
  const valid = {
    eventId: 'order-1',
    priority: 'urgent',
    recipient: { id: 'u1', addresses: { sms: '+905551112233' } },
    content: { title: 't', body: 'b' },
  };
  it('accepts a minimal request', () => {
    expect(notificationRequestSchema.safeParse(valid).success).toBe(true);
  });
  it.each([
    ['a local phone number', { ...valid, recipient: { id: 'u1', addresses: { sms: '05551112233' } } }],
    ['a repeated preference', { ...valid, recipient: { ...valid.recipient, preferences: ['sms', 'sms'] } }],
    ['an unknown channel', { ...valid, recipient: { ...valid.recipient, preferences: ['fax'] } }],
    ['an event id with spaces', { ...valid, eventId: 'a b' }],
    ['an unknown priority', { ...valid, priority: 'high' }],
    ['an unknown field', { ...valid, extra: 1 }],
  ])('refuses %s', (_what, body) => {
    expect(notificationRequestSchema.safeParse(body).success).toBe(false);
  });
});
