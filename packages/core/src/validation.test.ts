import { createECDH, randomBytes } from 'node:crypto';
import { isNotifyError, type NotifyError } from './errors';
import { formatEmail } from './formatting/email';
import { formatPush } from './formatting/push';
import { EMAIL_MESSAGE_LIMIT_BYTES, PUSH_PAYLOAD_LIMIT_BYTES, SMS_SEGMENT_CAP } from './limits';
import { notificationRequestSchema, recipientProfileSchema } from './schemas';
import { parseOrThrow } from './validation';

const request = (content: Record<string, unknown>) => ({
  eventId: 'e-1',
  priority: 'urgent',
  recipient: { id: 'r-1', addresses: { push: 'tok', sms: '+905551112233', email: 'r@example.com' } },
  content: { title: 'Title', body: 'Body', ...content },
});

function rejection(body: unknown): NotifyError {
  try {
    parseOrThrow(notificationRequestSchema, body);
  } catch (error) {
    if (isNotifyError(error)) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

/** 40 entries of 64-character keys and 100-character values: each valid, together over 4 KB. */
const bulkyData = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${String(i).padStart(63, '0')}`, 'v'.repeat(100)]));

describe('intake refuses what the formatters can never render (400 naming the field)', () => {
  it('push data that cannot fit the push payload even with the body cut', () => {
    expect(() => formatPush({ title: 'Title', body: 'Body', data: bulkyData })).toThrow(RangeError);
    const error = rejection(request({ overrides: { push: { data: bulkyData } } }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', httpStatus: 400 });
    expect(error.details).toEqual([{ field: 'content.overrides.push.data', reason: expect.stringContaining(`${PUSH_PAYLOAD_LIMIT_BYTES}`) }]);
  });

  it('accepts push data that fits', () => {
    const small = Object.fromEntries(Object.entries(bulkyData).slice(0, 10));
    expect(notificationRequestSchema.safeParse(request({ overrides: { push: { data: small } } })).success).toBe(true);
  });

  it('an SMS override needing more parts than the cap', () => {
    const long = 'a'.repeat(153 * SMS_SEGMENT_CAP + 1);
    expect(() => parseOrThrow(notificationRequestSchema, request({ overrides: { sms: { body: 'a'.repeat(153 * SMS_SEGMENT_CAP) } } }))).not.toThrow();
    expect(rejection(request({ overrides: { sms: { body: long } } })).details).toEqual([
      { field: 'content.overrides.sms.body', reason: `needs ${SMS_SEGMENT_CAP + 1} SMS parts; at most ${SMS_SEGMENT_CAP}` },
    ]);
  });

  it('an e-mail body over the e-mail size', () => {
    // Control characters travel JSON-escaped (6 bytes each): 20,000 characters weigh 120 KB.
    const body = '\u0001'.repeat(20_000);
    expect(() => formatEmail('Title', body)).toThrow(RangeError);
    expect(rejection(request({ overrides: { email: { body } } })).details).toEqual([
      { field: 'content.overrides.email.body', reason: expect.stringContaining(`${EMAIL_MESSAGE_LIMIT_BYTES}`) },
    ]);
  });
});

describe('the push address: a device token or a Web Push subscription (canonicalised to one string)', () => {
  const ecdh = createECDH('prime256v1');
  const p256dh = ecdh.generateKeys().toString('base64url');
  const auth = randomBytes(16).toString('base64url');
  const subscription = { endpoint: 'https://push.example.net/wpush/v2/abc', keys: { p256dh, auth } };
  const withPush = (push: unknown) => ({ ...request({}), recipient: { id: 'r-1', addresses: { push } } });
  const pushOf = (push: unknown) => parseOrThrow(notificationRequestSchema, withPush(push)).recipient.addresses?.push;

  it('keeps a device token as it is', () => {
    expect(pushOf('fcm-token:APA91b')).toBe('fcm-token:APA91b');
  });

  it('turns a subscription into one canonical JSON string, whatever the key order, padding or a null expirationTime', () => {
    const canonical = pushOf(subscription);
    expect(typeof canonical).toBe('string');
    expect(JSON.parse(canonical as string)).toEqual(subscription);
    const reordered = { keys: { auth: `${auth}==`, p256dh }, expirationTime: null, endpoint: subscription.endpoint };
    expect(pushOf(reordered)).toBe(canonical);
    // A stored profile answers the canonical string: sent back, it is the same address.
    expect(pushOf(canonical)).toBe(canonical);
    expect(JSON.parse(pushOf({ ...subscription, expirationTime: 1_900_000_000_000 }) as string)).toEqual({
      ...subscription,
      expirationTime: 1_900_000_000_000,
    });
  });

  it('a stored recipient profile accepts a subscription too', () => {
    expect(parseOrThrow(recipientProfileSchema, { addresses: { push: subscription } }).addresses.push).toBe(pushOf(subscription));
  });

  it.each([
    ['.keys.p256dh', { ...subscription, keys: { p256dh: randomBytes(64).toString('base64url'), auth } }, '65 bytes'],
    ['.keys.p256dh', { ...subscription, keys: { p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url'), auth } }, 'P-256'],
    ['.keys.p256dh', { ...subscription, keys: { p256dh: `${p256dh.slice(0, -2)}+/`, auth } }, 'base64url'],
    ['.keys.auth', { ...subscription, keys: { p256dh, auth: randomBytes(8).toString('base64url') } }, '16 bytes'],
    ['.keys.auth', { ...subscription, keys: { p256dh } }, 'string'],
    ['.endpoint', { ...subscription, endpoint: 'http://push.example.net/x' }, 'https URL'],
    ['.endpoint', { ...subscription, endpoint: `https://push.example.net/${'a'.repeat(2_100)}` }, '2048'],
    ['.expirationTime', { ...subscription, expirationTime: 'soon' }, 'number'],
    ['', { ...subscription, extra: 1 }, '"extra"'],
    ['', 42, 'device token (a string) or a Web Push subscription object'],
    ['', '{not json', 'cannot start with "{"'],
  ])('refuses a bad subscription with a 400 naming recipient.addresses.push%s', (field, push, reason) => {
    const error = rejection(withPush(push));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', httpStatus: 400 });
    expect(error.details).toEqual([{ field: `recipient.addresses.push${field}`, reason: expect.stringContaining(reason) }]);
  });

  it('a canonical string with a bad key names the key inside it', () => {
    const bad = JSON.stringify({ ...subscription, keys: { p256dh, auth: 'c2hvcnQ' } });
    expect(rejection(withPush(bad)).details).toEqual([{ field: 'recipient.addresses.push.keys.auth', reason: expect.stringContaining('16 bytes') }]);
  });
});
