import { z } from 'zod';
import { CHANNELS, PRIORITIES } from './channels';
import { buildEmail, emailBytes } from './formatting/email';
import { minimalPushBytes } from './formatting/push';
import { smsSegments } from './formatting/sms';
import { EMAIL_MESSAGE_LIMIT_BYTES, ID_PATTERN, LIMITS, PHONE_PATTERN, PUSH_PAYLOAD_LIMIT_BYTES, SMS_SEGMENT_CAP } from './limits';

const identifier = (max: number) =>
  z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`).regex(ID_PATTERN, 'may contain only letters, digits and . _ : @ - /');

export const addressesSchema = z.strictObject({
  push: z.string().min(1).max(LIMITS.pushTokenLength).optional(),
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
});

/** The recipient of a notification: inline addresses, or only an id naming a stored profile. */
export const recipientSchema = z.strictObject({
  id: identifier(LIMITS.recipientIdLength),
  addresses: addressesSchema.optional(),
  preferences: preferencesSchema.optional(),
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

export const notificationRequestSchema = z.strictObject({
  eventId: identifier(LIMITS.eventIdLength),
  priority: z.enum(PRIORITIES),
  recipient: recipientSchema,
  content: contentSchema,
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
