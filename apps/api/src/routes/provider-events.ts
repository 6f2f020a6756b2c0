import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request } from 'express';
import { NotifyError } from '@notify/core';
import type { ReceiptService } from '@notify/pipeline';
import { toProviderEvent } from './provider-events/event-shapes';
import { isInboundSms, stopSender } from './provider-events/sms-stop';
import type { SnsSignatureVerifier } from './provider-events/sns-signature';
import { TWILIO_SIGNATURE_HEADER, verifyTwilioSignature } from './provider-events/twilio-signature';

/** PROVIDER_EVENT_SECRETS parsed: provider name → shared secret. */
export type ProviderEventSecrets = ReadonlyMap<string, string>;

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

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

/** The router's dependencies: the receipts, each provider's secret, and the SNS signature check. */
export interface ProviderEventsDeps {
  receipts: ReceiptService;
  secrets: ProviderEventSecrets;
  bodyLimit: number;
  sns: Pick<SnsSignatureVerifier, 'verify'>;
  /** An inbound STOP from this number (docs/preferences.md); absent: inbound messages are ignored. */
  smsStop?: (phone: string) => Promise<void>;
}

/**
 * How a request proves it comes from the provider, once its secret (if presented) was checked:
 * the secret it presents (Bearer, or Basic with the secret as password), or for an HTTP SMS
 * status callback an X-Twilio-Signature keyed with that secret. A signature the shape carries is
 * always verified: a callback's, and an SNS message's, which needs the secret besides (any AWS
 * account can have SNS sign a message, so the signature alone names no subscription).
 */
async function authenticate(req: Request, provider: string, secret: string, shape: 'json' | 'form', body: unknown, deps: ProviderEventsDeps): Promise<void> {
  if (presentedSecret(req) === undefined) {
    // No secret presented: only a callback's signature, keyed with the secret, proves the provider.
    if (shape !== 'form') throw new NotifyError('UNAUTHORIZED', "missing Authorization: Bearer <the provider's event secret>");
    if (!verifyTwilioSignature(req, secret, body as Record<string, string | string[]>)) {
      throw new NotifyError('UNAUTHORIZED', `X-Twilio-Signature is not ${provider}'s signature of this request (keyed with its event secret)`);
    }
    return;
  }
  if (shape === 'form' && req.get(TWILIO_SIGNATURE_HEADER) !== undefined && !verifyTwilioSignature(req, secret, body as Record<string, string | string[]>)) {
    throw new NotifyError('UNAUTHORIZED', `X-Twilio-Signature is not ${provider}'s signature of this request (keyed with its event secret)`);
  }
  if (shape === 'json' && isRecord(body) && 'Type' in body && ('Signature' in body || 'SignatureVersion' in body)) await deps.sns.verify(body);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body as parsed per its media type: a form's fields, or JSON (also sent as text/plain, as SNS does). */
function parsedBody(req: Request): { shape: 'json' | 'form'; body: unknown } {
  if (req.is('application/x-www-form-urlencoded')) return { shape: 'form', body: req.body };
  if (!req.is(['application/json', 'application/*+json', 'text/plain'])) {
    throw new NotifyError('UNSUPPORTED_MEDIA_TYPE', 'send JSON (application/json, or text/plain as SNS does) or a form (application/x-www-form-urlencoded)');
  }
  try {
    return { shape: 'json', body: JSON.parse(typeof req.body === 'string' ? req.body : '') };
  } catch {
    throw new NotifyError('MALFORMED_JSON', 'the body is not valid JSON');
  }
}

/**
 * POST /v1/providers/:provider/events — receipts, bounces and complaints from a provider
 * (docs/provider-events.md). Authenticated per provider (see authenticate); an unknown provider
 * is a 404. Answers 200 `applied` / `duplicate` / `ignored`, or 202 `unmatched` / `refused`
 * (nothing changed: counted, and acknowledged so the provider does not retry it for days).
 */
export function providerEventsRouter(deps: ProviderEventsDeps): Router {
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
      // Before the body is read: a wrong or missing credential costs no parsing.
      const presented = presentedSecret(req);
      if (presented !== undefined && !timingSafeEqual(digest(presented), expected)) return next(new NotifyError('UNAUTHORIZED', 'wrong provider event secret'));
      if (presented === undefined && req.get(TWILIO_SIGNATURE_HEADER) === undefined) {
        return next(new NotifyError('UNAUTHORIZED', "missing Authorization: Bearer <the provider's event secret> (or a status callback's X-Twilio-Signature)"));
      }
      next();
    },
    text,
    form,
    async (req, res) => {
      const provider = String(req.params.provider);
      const { shape, body } = parsedBody(req);
      await authenticate(req, provider, deps.secrets.get(provider) as string, shape, body, deps);
      if (shape === 'form' && isInboundSms(body)) {
        const phone = stopSender(body);
        if (phone !== undefined && deps.smsStop) await deps.smsStop(phone);
        res.status(200).json({ status: phone !== undefined && deps.smsStop ? 'applied' : 'ignored' });
        return;
      }
      const event = toProviderEvent(provider, body, shape);
      if (event === 'ignored') {
        res.status(200).json({ status: 'ignored' });
        return;
      }
      const result = await deps.receipts.apply(event);
      if (result.status === 'unmatched' || result.status === 'refused') {
        res.status(202).json(result);
        return;
      }
      res
        .status(200)
        .json(result.status === 'applied' ? { status: 'applied', notificationId: result.notificationId, notificationStatus: result.after } : result);
    },
  );
  return router;
}
