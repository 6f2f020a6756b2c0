import { isNotifyError, type NotifyError } from './errors';
import { formatEmail } from './formatting/email';
import { formatPush } from './formatting/push';
import { EMAIL_MESSAGE_LIMIT_BYTES, PUSH_PAYLOAD_LIMIT_BYTES, SMS_SEGMENT_CAP } from './limits';
import { notificationRequestSchema } from './schemas';
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
