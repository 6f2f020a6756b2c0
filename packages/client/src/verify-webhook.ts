import { createHmac, timingSafeEqual } from 'node:crypto';
import { NotifyError } from './errors';
import type { NotificationView } from './types';

/** What a webhook request carries (docs/webhooks.md): `data` is the notification as `get` answers it. */
export type WebhookEvent =
  | {
      id: string;
      type:
        'notification.delivered' | 'notification.failed' | 'notification.unconfirmed' | 'notification.bounced' | 'notification.complained' | 'attempt.failed';
      timestamp: string;
      data: NotificationView;
    }
  | { id: string; type: 'endpoint.disabled'; timestamp: string; data: { endpointId: string; reason: string; disabledAt: number } };

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the `webhook-timestamp` may be from now. @defaultValue 300 (the Standard Webhooks tolerance) */
  toleranceSeconds?: number;
  /** @defaultValue Date.now() */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

const refuse = (message: string) => new NotifyError({ code: 'UNAUTHORIZED', message: `webhook refused: ${message}`, status: 0 });

/**
 * Checks a webhook request the Standard Webhooks way and answers its event: an HMAC-SHA256 of
 * `id.timestamp.body` under the endpoint's secret (`whsec_<base64>`, shown at creation) must
 * match one of the `v1,` signatures (two while a rotated secret's grace lasts), and the
 * timestamp must be within the tolerance (a replayed request is refused). Pass the body exactly
 * as received (before any JSON parsing). Throws a NotifyError (`UNAUTHORIZED`) otherwise.
 */
export function verifyWebhook(headers: WebhookHeaders, body: string | Uint8Array, secret: string, options: VerifyOptions = {}): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw refuse('webhook-id, webhook-timestamp and webhook-signature are required');
  if (!/^\d+$/.test(timestamp)) throw refuse('webhook-timestamp is not a number of seconds');
  const now = options.now ?? Date.now();
  if (Math.abs(now / 1000 - Number(timestamp)) > (options.toleranceSeconds ?? 300)) throw refuse('webhook-timestamp is outside the tolerance');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || value === undefined) return false;
    const presented = Buffer.from(value, 'base64');
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  });
  if (!matches) throw refuse('no signature matches this secret');
  return JSON.parse(text) as WebhookEvent;
}
