import { z } from 'zod';
import { parseOrThrow, validationError } from '@notify/core';
import type { ProviderEvent } from '@notify/pipeline';

const SHORT = 200;

/** (a) The generic JSON shape. */
export const genericProviderEventSchema = z.strictObject({
  eventId: z.string().min(1).max(200),
  type: z.enum(['delivered', 'bounced', 'complained', 'undeliverable', 'expired']),
  providerMessageId: z.string().min(1).max(300),
  at: z.union([z.iso.datetime({ offset: true }), z.number().int().min(0).max(8_640_000_000_000_000)]).optional(),
  bounceType: z.enum(['hard', 'soft']).optional(),
  detail: z.string().max(1_000).optional(),
});

/** (b) An SNS notification (`Type: Notification`) whose `Message` is an SES-style event. */
const snsEnvelopeSchema = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: z.string().min(1).max(200),
  Message: z.string().max(256 * 1024),
  Timestamp: z.string().max(64).optional(),
});
const sesMessageSchema = z.object({
  notificationType: z.enum(['Bounce', 'Complaint', 'Delivery']),
  mail: z.object({ messageId: z.string().min(1).max(300), timestamp: z.string().max(64).optional() }),
  bounce: z
    .object({
      bounceType: z.enum(['Permanent', 'Transient', 'Undetermined']),
      bounceSubType: z.string().max(100).optional(),
      timestamp: z.string().max(64).optional(),
    })
    .optional(),
  complaint: z.object({ complaintFeedbackType: z.string().max(100).optional(), timestamp: z.string().max(64).optional() }).optional(),
  delivery: z.object({ timestamp: z.string().max(64).optional() }).optional(),
});

/** (c) The HTTP SMS status callback (Twilio-like form fields). */
const smsCallbackSchema = z.object({
  MessageSid: z.string().min(1).max(100),
  MessageStatus: z.enum(['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'accepted', 'scheduled', 'read', 'canceled']),
  ErrorCode: z.string().max(20).optional(),
});

function time(raw: string | number | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = typeof raw === 'number' ? raw : Date.parse(raw);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The body as one ProviderEvent, or `ignored` (an SNS subscription message, a non-final SMS status). Throws a 400 naming the field. */
export function toProviderEvent(provider: string, body: unknown, contentType: 'json' | 'form'): ProviderEvent | 'ignored' {
  if (contentType === 'form') {
    const form = parseOrThrow(smsCallbackSchema, body);
    const kind =
      form.MessageStatus === 'delivered' ? 'delivered' : form.MessageStatus === 'undelivered' || form.MessageStatus === 'failed' ? 'undeliverable' : undefined;
    if (!kind) return 'ignored';
    return {
      provider,
      providerMessageId: form.MessageSid,
      kind,
      eventId: `${form.MessageSid}:${form.MessageStatus}`,
      detail: `${form.MessageStatus}${form.ErrorCode ? ` ${form.ErrorCode}` : ''}`.slice(0, SHORT),
    };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validationError([{ field: '(body)', reason: 'must be a JSON object' }]);
  if ('Type' in body) {
    const envelope = parseOrThrow(snsEnvelopeSchema, body);
    if (envelope.Type !== 'Notification') return 'ignored';
    let inner: unknown;
    try {
      inner = JSON.parse(envelope.Message);
    } catch {
      throw validationError([{ field: 'Message', reason: 'must be the JSON text of the e-mail event' }]);
    }
    const ses = parseOrThrow(sesMessageSchema, inner, 'Message');
    const base = { provider, providerMessageId: ses.mail.messageId, eventId: envelope.MessageId };
    if (ses.notificationType === 'Delivery') return { ...base, kind: 'delivered', ...optionalAt(ses.delivery?.timestamp), detail: 'Delivery' };
    if (ses.notificationType === 'Complaint') {
      return {
        ...base,
        kind: 'complained',
        ...optionalAt(ses.complaint?.timestamp),
        detail: `Complaint ${ses.complaint?.complaintFeedbackType ?? ''}`.trim().slice(0, SHORT),
      };
    }
    if (!ses.bounce) throw validationError([{ field: 'Message.bounce', reason: 'required for a Bounce' }]);
    return {
      ...base,
      kind: 'bounced',
      bounceType: ses.bounce.bounceType === 'Permanent' ? 'hard' : 'soft',
      ...optionalAt(ses.bounce.timestamp),
      detail: `${ses.bounce.bounceType} ${ses.bounce.bounceSubType ?? ''}`.trim().slice(0, SHORT),
    };
  }
  const generic = parseOrThrow(genericProviderEventSchema, body);
  const at = time(generic.at);
  return {
    provider,
    providerMessageId: generic.providerMessageId,
    kind: generic.type,
    eventId: generic.eventId,
    ...(generic.bounceType ? { bounceType: generic.bounceType } : {}),
    ...(at !== undefined ? { at } : {}),
    ...(generic.detail ? { detail: generic.detail.slice(0, SHORT) } : {}),
  };
}

function optionalAt(raw: string | undefined): { at?: number } {
  const at = time(raw);
  return at === undefined ? {} : { at };
}
