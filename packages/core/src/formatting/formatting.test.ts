import { PUSH_PAYLOAD_LIMIT_BYTES, SMS_SEGMENT_CAP } from '../limits';
import { formatPush } from './push';
import { formatSms, smsSegments } from './sms';
import { formatEmail } from './email';
import { renderForChannel } from './render';

describe('SMS formatting', () => {
  it('uses GSM-7 for plain Latin text: 160 in one segment, 153 per part beyond', () => {
    expect(formatSms('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', segments: 1, truncated: false });
    expect(smsSegments('a'.repeat(161))).toBe(2);
    expect(smsSegments('a'.repeat(306))).toBe(2);
    expect(smsSegments('a'.repeat(307))).toBe(3);
  });

  it('counts extension characters as two septets', () => {
    expect(smsSegments('€'.repeat(80))).toBe(1);
    expect(smsSegments('€'.repeat(81))).toBe(2);
  });

  it('switches to UCS-2 for Turkish letters: 70 in one segment, 67 per part', () => {
    expect(formatSms('Kargonuz yolda, şoförümüz çıktı')).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments('ı'.repeat(70))).toBe(1);
    expect(smsSegments('ı'.repeat(71))).toBe(2);
  });

  it('refuses a part limit beyond the platform cap (the one intake validation uses)', () => {
    expect(() => formatSms('hi', SMS_SEGMENT_CAP + 1)).toThrow(RangeError);
    expect(formatSms('a'.repeat(2_000), SMS_SEGMENT_CAP)).toMatchObject({ segments: SMS_SEGMENT_CAP, truncated: true });
  });

  it('cuts a long text to the segment limit, never splitting a surrogate pair', () => {
    const fitted = formatSms('ğ'.repeat(500), 2);
    expect(fitted).toMatchObject({ encoding: 'UCS-2', segments: 2, truncated: true });
    expect(fitted.text.endsWith('...')).toBe(true);
    const emoji = formatSms('😀'.repeat(200), 1);
    expect(emoji.text.length).toBeLessThanOrEqual(70);
    expect(emoji.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('push formatting', () => {
  it('keeps small payloads as they are', () => {
    expect(formatPush({ title: 't', body: 'b' })).toMatchObject({ truncated: false, payload: { title: 't', body: 'b' } });
  });
  it('shortens the body so the JSON payload fits 4 KB', () => {
    const message = formatPush({ title: 'Başlık', body: 'ş"'.repeat(5_000) });
    expect(message.truncated).toBe(true);
    expect(message.bytes).toBeLessThanOrEqual(PUSH_PAYLOAD_LIMIT_BYTES);
    expect(Buffer.byteLength(JSON.stringify(message.payload))).toBe(message.bytes);
  });
  it('refuses a payload whose title and data alone exceed the limit', () => {
    expect(() => formatPush({ title: 'x'.repeat(5_000), body: 'b' })).toThrow(RangeError);
  });
});

describe('e-mail formatting and overrides', () => {
  it('folds newlines out of the subject', () => {
    expect(formatEmail('a\r\nBcc: x@y.z', 'body').subject).toBe('a Bcc: x@y.z');
  });
  it('applies per-channel overrides', () => {
    const content = { title: 'T', body: 'B', overrides: { sms: { body: 'short' }, email: { subject: 'S' } } };
    expect(renderForChannel('sms', content, { smsMaxSegments: 3 })).toMatchObject({ sms: { text: 'short' } });
    expect(renderForChannel('email', content, { smsMaxSegments: 3 })).toMatchObject({ email: { subject: 'S', text: 'B' } });
    expect(renderForChannel('push', content, { smsMaxSegments: 3 })).toMatchObject({ push: { payload: { title: 'T', body: 'B' } } });
  });
});
