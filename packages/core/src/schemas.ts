import { ECDH } from 'node:crypto';
import { z } from 'zod';
import { CHANNELS, PRIORITIES } from './channels';
import { expiresAtSchema, ttlSecondsSchema } from './expiry';
import { buildEmail, emailBytes } from './formatting/email';
import { minimalPushBytes } from './formatting/push';
import { smsSegments } from './formatting/sms';
import { quietHoursSchema, timeZoneSchema } from './time/quiet-hours';
import { EMAIL_MESSAGE_LIMIT_BYTES, ID_PATTERN, LIMITS, PHONE_PATTERN, PUSH_PAYLOAD_LIMIT_BYTES, SMS_SEGMENT_CAP } from './limits';

const identifier = (max: number) =>
  z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`).regex(ID_PATTERN, 'may contain only letters, digits and . _ : @ - /');

/** A recipient id as a tenant gives it (body fields; path ids are checked by the routes). */
export const recipientIdSchema = identifier(LIMITS.recipientIdLength);

/** A Web Push subscription's endpoint URL (push services issue a few hundred characters). */
const PUSH_ENDPOINT_LENGTH = 2_048;

/** A base64url key of `bytes` bytes; `check` adds a test of the decoded key. One reason per key, the first that fails. */
const base64urlKey = (bytes: number, what: string, check?: { test: (key: Buffer) => boolean; message: string }) =>
  z.string().superRefine((value, ctx) => {
    const key = Buffer.from(value, 'base64url');
    const reason = !/^[A-Za-z0-9_-]+={0,2}$/.test(value)
      ? 'must be base64url'
      : key.length !== bytes
        ? `must decode to ${bytes} bytes (${what})`
        : check && !check.test(key)
          ? check.message
          : undefined;
    if (reason) ctx.addIssue({ code: 'custom', message: reason, input: value });
  });

/**
 * A Web Push subscription as the browser's `PushSubscription.toJSON()` gives it. It becomes one
 * canonical JSON string (fixed key order, unpadded base64url keys, `expirationTime` only when a
 * number), so every downstream type stays `string` and one subscription always hashes alike;
 * `@notify/providers`' `providerAddress` turns it back into an object.
 */
export const pushSubscriptionSchema = z
  .strictObject({
    endpoint: z
      .url({ protocol: /^https$/, error: 'must be an https URL (the push service endpoint)' })
      .max(PUSH_ENDPOINT_LENGTH, `must be at most ${PUSH_ENDPOINT_LENGTH} characters`),
    keys: z.strictObject({
      p256dh: base64urlKey(65, 'an uncompressed P-256 public key', { test: isP256Point, message: 'must be a point on the P-256 curve' }),
      auth: base64urlKey(16, 'the authentication secret'),
    }),
    expirationTime: z.number().int().nonnegative().nullable().optional(),
  })
  .transform(({ endpoint, keys, expirationTime }) =>
    JSON.stringify({
      endpoint,
      keys: { p256dh: Buffer.from(keys.p256dh, 'base64url').toString('base64url'), auth: Buffer.from(keys.auth, 'base64url').toString('base64url') },
      ...(typeof expirationTime === 'number' ? { expirationTime } : {}),
    }),
  );

function isP256Point(key: Buffer): boolean {
  try {
    ECDH.convertKey(key, 'prime256v1');
    return key[0] === 0x04;
  } catch {
    return false;
  }
}

/**
 * The push address: a device token (FCM, APNs) or a Web Push subscription object. A string that
 * starts with `{` is a subscription in its canonical form (as a stored profile answers it) and is
 * validated as one, so a token can never be mistaken for a subscription downstream.
 */
export const pushAddressSchema = z.union(
  [
    z
      .string()
      .min(1)
      .max(LIMITS.pushTokenLength)
      .transform((value, ctx) => {
        if (!value.startsWith('{')) return value;
        let parsed: unknown;
        try {
          parsed = JSON.parse(value);
        } catch {
          ctx.addIssue({ code: 'custom', message: 'a device token cannot start with "{"; send a Web Push subscription as an object', input: value });
          return z.NEVER;
        }
        const result = pushSubscriptionSchema.safeParse(parsed);
        if (result.success) return result.data;
        for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: value });
        return z.NEVER;
      }),
    pushSubscriptionSchema,
  ],
  { error: 'must be a device token (a string) or a Web Push subscription object' },
);

export const addressesSchema = z.strictObject({
  push: pushAddressSchema.optional(),
  sms: z.string().regex(PHONE_PATTERN, 'must be an E.164 phone number such as +905551112233').optional(),
  email: z.email('must be an e-mail address').max(254).optional(),
});

export const preferencesSchema = z
  .array(z.enum(CHANNELS))
  .min(1)
  .max(CHANNELS.length)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a channel');

/** A stored recipient profile (`PUT /v1/recipients/:id`). */
export const recipientProfileSchema = z.strictObject({
  addresses: addressesSchema,
  preferences: preferencesSchema.optional(),
  timeZone: timeZoneSchema.optional(),
  quietHours: quietHoursSchema.optional(),
});

/** The recipient of a notification: inline addresses, or only an id naming a stored profile. */
export const recipientSchema = z.strictObject({
  id: identifier(LIMITS.recipientIdLength),
  addresses: addressesSchema.optional(),
  preferences: preferencesSchema.optional(),
  timeZone: timeZoneSchema.optional(),
  quietHours: quietHoursSchema.optional(),
});

const text = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const contentSchema = z
  .strictObject({
    title: text(LIMITS.titleLength),
    body: text(LIMITS.bodyLength),
    overrides: z
      .strictObject({
        push: z
          .strictObject({
            title: text(LIMITS.titleLength).optional(),
            body: text(LIMITS.bodyLength).optional(),
            data: z.record(z.string().max(64), z.string().max(1_024)).optional(),
          })
          .optional(),
        sms: z.strictObject({ body: text(LIMITS.bodyLength) }).optional(),
        email: z.strictObject({ subject: text(LIMITS.titleLength).optional(), body: text(LIMITS.bodyLength * 5).optional() }).optional(),
      })
      .optional(),
  })
  .superRefine((content, ctx) => {
    // The formatters' size rules, checked before a 202: what passes here always renders.
    const push = content.overrides?.push;
    const pushBytes = minimalPushBytes({ title: push?.title ?? content.title, ...(push?.data ? { data: push.data } : {}) });
    if (pushBytes > PUSH_PAYLOAD_LIMIT_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['overrides', 'push', push?.data ? 'data' : 'title'],
        message: `the push payload would be ${pushBytes} bytes even with the body cut; push allows ${PUSH_PAYLOAD_LIMIT_BYTES}`,
      });
    }
    const sms = content.overrides?.sms?.body;
    if (typeof sms === 'string' && smsSegments(sms) > SMS_SEGMENT_CAP) {
      ctx.addIssue({ code: 'custom', path: ['overrides', 'sms', 'body'], message: `needs ${smsSegments(sms)} SMS parts; at most ${SMS_SEGMENT_CAP}` });
    }
    const email = content.overrides?.email;
    const mailBytes = emailBytes(buildEmail(String(email?.subject ?? content.title ?? ''), String(email?.body ?? content.body ?? '')));
    if (mailBytes > EMAIL_MESSAGE_LIMIT_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: email?.body ? ['overrides', 'email', 'body'] : ['body'],
        message: `the e-mail would be ${mailBytes} bytes; at most ${EMAIL_MESSAGE_LIMIT_BYTES}`,
      });
    }
  });

/**
 * When to send (RFC 3339 with an offset or `Z`; docs/scheduling.md). Kept as the canonical UTC
 * form (`2026-12-24T08:00:00.000Z`), so two spellings of one instant fingerprint alike while a
 * moved time is a changed payload. How far ahead it may be is a deployment's limit
 * (SCHEDULE_MAX_AHEAD), checked at intake.
 */
export const sendAtSchema = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 date-time with an offset, e.g. 2026-12-24T09:00:00+01:00 or 2026-12-24T08:00:00Z' })
  .transform((value) => new Date(value).toISOString());

export const notificationRequestSchema = z.strictObject({
  eventId: identifier(LIMITS.eventIdLength),
  priority: z.enum(PRIORITIES),
  recipient: recipientSchema,
  content: contentSchema,
  sendAt: sendAtSchema.optional(),
  /** When it is no use any more (docs/scheduling.md, Cancel and expiry): at most one of the two. */
  expiresAt: expiresAtSchema.optional(),
  ttlSeconds: ttlSecondsSchema.optional(),
  /** The tenant's category (docs/preferences.md); none: the default category. */
  category: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 characters of letters, digits and . _ -')
    .optional(),
  /** An urgent notification waits out quiet hours too (a reminder always does). */
  respectQuietHours: z.boolean().optional(),
});

export const batchRequestSchema = z.strictObject({
  notifications: z
    .array(z.unknown())
    .min(1, 'must hold at least one notification')
    .max(LIMITS.batchSize, `must hold at most ${LIMITS.batchSize} notifications`),
});

export type Addresses = z.infer<typeof addressesSchema>;
export type RecipientProfile = z.infer<typeof recipientProfileSchema>;
export type NotificationRequest = z.infer<typeof notificationRequestSchema>;
export type NotificationContent = z.infer<typeof contentSchema>;
