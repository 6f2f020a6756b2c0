import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import { NotifyError, parseOrThrow, validationError } from '@notify/core';
import type { ProviderEvent, ReceiptService } from '@notify/pipeline';

/** PROVIDER_EVENT_SECRETS parsed: provider name → shared secret. */
export type ProviderEventSecrets = ReadonlyMap<string, string>;

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
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

/** PROVIDER_EVENT_SECRETS `name:secret,name2:secret2` (secrets at least 16 characters). */
export function parseProviderEventSecrets(raw: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.indexOf(':');
    const name = pair.slice(0, at);
    const secret = pair.slice(at + 1);
    if (at <= 0 || !PROVIDER_NAME.test(name)) throw new Error('each pair must be <provider name>:<secret> (name: lowercase letters, digits, - and _)');
    if (secret.length < 16) throw new Error(`the secret of provider '${name}' must be at least 16 characters`);
    if (map.has(name)) throw new Error(`provider '${name}' is listed twice`);
    map.set(name, secret);
  }
  return map;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The secret the request presents: `Authorization: Bearer <secret>`, or Basic with the secret as password (SNS and Twilio-style callback URLs). */
function presentedSecret(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const bearer = /^Bearer (.+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
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

/**
 * POST /v1/providers/:provider/events — receipts, bounces and complaints from a provider
 * (docs/provider-events.md). Authenticated per provider by its shared secret (PROVIDER_EVENT_SECRETS,
 * compared in constant time); an unknown provider is a 404. Answers 200 `applied` / `duplicate` /
 * `ignored`, or 202 `unmatched` (no notification has that message id: counted, and acknowledged so
 * the provider does not retry it for days).
 */
export function providerEventsRouter(deps: { receipts: ReceiptService; secrets: ProviderEventSecrets; bodyLimit: number }): Router {
  const router = Router();
  const secrets = new Map([...deps.secrets].map(([name, secret]) => [name, digest(secret)]));
  const text = express.text({ type: ['application/json', 'application/*+json', 'text/plain'], limit: deps.bodyLimit });
  const form = express.urlencoded({ extended: false, limit: deps.bodyLimit, parameterLimit: 100 });

  router.post(
    '/:provider/events',
    (req, _res, next) => {
      const provider = String(req.params.provider);
      const expected = secrets.get(provider);
      if (!expected) return next(new NotifyError('NOT_FOUND', `no provider '${provider.slice(0, 64)}' accepts events here`));
      const presented = presentedSecret(req);
      if (presented === undefined) return next(new NotifyError('UNAUTHORIZED', "missing Authorization: Bearer <the provider's event secret>"));
      if (!timingSafeEqual(digest(presented), expected)) return next(new NotifyError('UNAUTHORIZED', 'wrong provider event secret'));
      next();
    },
    text,
    form,
    async (req, res) => {
      const provider = String(req.params.provider);
      let body: unknown = req.body;
      let kind: 'json' | 'form';
      if (req.is('application/x-www-form-urlencoded')) kind = 'form';
      else if (req.is(['application/json', 'application/*+json', 'text/plain'])) {
        kind = 'json';
        try {
          body = JSON.parse(typeof body === 'string' ? body : '');
        } catch {
          throw new NotifyError('MALFORMED_JSON', 'the body is not valid JSON');
        }
      } else
        throw new NotifyError(
          'UNSUPPORTED_MEDIA_TYPE',
          'send JSON (application/json, or text/plain as SNS does) or a form (application/x-www-form-urlencoded)',
        );
      const event = toProviderEvent(provider, body, kind);
      if (event === 'ignored') {
        res.status(200).json({ status: 'ignored' });
        return;
      }
      const result = await deps.receipts.apply(event);
      if (result.status === 'unmatched') {
        res.status(202).json({ status: 'unmatched' });
        return;
      }
      res
        .status(200)
        .json(result.status === 'applied' ? { status: 'applied', notificationId: result.notificationId, notificationStatus: result.after } : result);
    },
  );
  return router;
}
