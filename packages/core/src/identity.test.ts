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

  it('keeps the fingerprints and ids already stored (pinned values: a change would answer 422 to a retry)', () => {
    const request = {
      eventId: 'order-1',
      priority: 'urgent',
      recipient: { id: 'u1', addresses: { sms: '+905551112233', email: 'A@Example.com' }, preferences: ['sms', 'email'] },
      content: { title: 'Şişli "quoted"', body: 'b\n\u2028', data: { z: [1, { b: null, a: true }], a: 1.5, é: 'x', A: undefined } },
    };
    expect(payloadFingerprint(request)).toBe('f6fcce9cb4ce9684750591067a5c6c62766a1fd8728bf6553b4410db1c02fcf2');
    expect(stableStringify([1, undefined, 'x', null, {}, []])).toBe('[1,,"x",null,{},[]]');
    expect(notificationId('t', 'e', 'r')).toBe('a77b4fcaee95c36f3bdaefc3d1fd5dc0');
    expect(recipientHash('t', 'r')).toBe('5dc04f8f5b03f79b2eb1b9711f6253d8');
  });

  it('answers each recipient pair with its own hash when pairs alternate', () => {
    const a = recipientHash('t', 'r1');
    const b = recipientHash('t', 'r2');
    expect(recipientHash('t', 'r1')).toBe(a);
    expect(recipientHash('t2', 'r1')).not.toBe(a);
    expect(recipientHash('t', 'r2')).toBe(b);
    expect(notificationId('t', 'e', 'r2').slice(28)).toBe(b.slice(0, 4));
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
