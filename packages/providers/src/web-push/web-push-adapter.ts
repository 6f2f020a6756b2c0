import { rootCertificates } from 'node:tls';
import type { Agent } from 'undici';
import webPush from 'web-push';
import { PUSH_PAYLOAD_LIMIT_BYTES, WEB_PUSH_RECORD_BYTES, classifyProviderStatus, type Priority, type PushPayload } from '@notify/core';
import { elapsedMs, type ProviderAdapter, type ProviderCapabilities, type SendRequest, type SendResult } from '../adapter';
import { postWithin } from '../http-post';
import { providerAgent } from '../provider-agent';
import { parseJsonObject } from '../network-failure';
import { isPushSubscription, providerAddress } from '../push-address';
import { scrubPushText } from '../push-text';
import { webPushProviderConfigSchema, type WebPushProviderConfig, type WebPushProviderConfigInput } from './config';

/** One aes128gcm record's payload (core's PUSH_PAYLOAD_LIMIT_BYTES: intake checks the same constant). */
export const WEB_PUSH_MAX_PAYLOAD_BYTES = PUSH_PAYLOAD_LIMIT_BYTES;
export { WEB_PUSH_RECORD_BYTES };

const CAPABILITIES: ProviderCapabilities = Object.freeze({
  idempotencyKey: false,
  lookup: false,
  receipts: false,
  maxPayloadBytes: WEB_PUSH_MAX_PAYLOAD_BYTES,
});

/** What a push service's non-2xx answer means. */
function classifyAnswer(status: number, body: string): Omit<SendResult, 'durationMs' | 'sent'> {
  const errorClass = `http-${status}`;
  if (status === 404 || status === 410) {
    return { outcome: 'permanent', errorClass, message: 'the push subscription has expired or was unsubscribed', addressInvalid: true };
  }
  if (status === 413) return { outcome: 'permanent', errorClass, message: 'the push service refused the payload as too large' };
  if (status === 401 || status === 403) {
    // A VAPID key other than the subscription's applicationServerKey, or a JWT the service refuses: the sender's configuration.
    return { outcome: 'permanent', errorClass, message: `configuration error: the push service refused the VAPID authorization (${status})` };
  }
  const outcome = classifyProviderStatus(status);
  const json = parseJsonObject(body);
  const reason = [json?.reason, json?.message, json?.error].find((value): value is string => typeof value === 'string');
  return { outcome, errorClass, message: reason ? `push service answered ${status}: ${scrubPushText(reason, 160)}` : `push service answered ${status}` };
}

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm encryption (RFC 8291): the `web-push`
 * package builds the request (encrypts the payload for the subscription's keys, signs the VAPID
 * JWT for the endpoint's origin); undici sends it, so a refused connection (not sent) and a
 * timeout after the request was written (unknown) are told apart, and a private CA can be trusted.
 * Answers: 2xx delivered; 404/410 permanent and the subscription is dead (suppress it); 413
 * permanent; 401/403 permanent (VAPID configuration); 429/5xx transient; other 4xx permanent.
 * A payload over WEB_PUSH_MAX_PAYLOAD_BYTES is refused before any call: permanent, not sent
 * (errorClass `payload-too-large`) — re-sending cannot make it fit.
 * Push services take no idempotency key: a re-send after an unknown outcome may show twice.
 */
export class WebPushAdapter implements ProviderAdapter {
  readonly kind = 'web-push' as const;
  readonly name: string;
  readonly channel = 'push' as const;
  readonly capabilities = CAPABILITIES;
  readonly #config: WebPushProviderConfig;
  readonly #agent: Agent;

  constructor(config: WebPushProviderConfigInput | WebPushProviderConfig) {
    const c = webPushProviderConfigSchema.parse(config);
    this.#config = c;
    this.name = c.name;
    // An extra CA is added to the system's (Node's `ca` alone would replace them).
    this.#agent = providerAgent(c, { rejectUnauthorized: c.tls.rejectUnauthorized, ...(c.tls.ca ? { ca: [...rootCertificates, c.tls.ca] } : {}) });
  }

  /** TTL (seconds) and Urgency for a priority (see DEFAULT_WEB_PUSH_DELIVERY). */
  delivery(priority: Priority): { ttlSeconds: number; urgency: string } {
    return this.#config.delivery[priority];
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (request.message.channel !== 'push') throw new Error(`provider ${this.name} sends push, not ${request.message.channel}`);
    const started = performance.now();
    const to = typeof request.to === 'string' ? providerAddress(request.to) : request.to;
    if (!isPushSubscription(to)) {
      // A device token on a Web Push provider: the address can never go this way (an FCM provider takes it).
      return {
        outcome: 'permanent',
        errorClass: 'not-a-subscription',
        message: 'Web Push needs a subscription address, not a device token',
        durationMs: 0,
        sent: false,
      };
    }
    if (to.expirationTime !== undefined && to.expirationTime <= Date.now()) {
      return {
        outcome: 'permanent',
        errorClass: 'subscription-expired',
        message: 'the push subscription expired',
        durationMs: 0,
        sent: false,
        addressInvalid: true,
      };
    }
    const payload = pushPayloadJson(request.message.push.payload);
    const bytes = Buffer.byteLength(payload, 'utf8');
    if (bytes > WEB_PUSH_MAX_PAYLOAD_BYTES) {
      return {
        outcome: 'permanent',
        errorClass: 'payload-too-large',
        message: `the push payload is ${bytes} bytes; Web Push carries at most ${WEB_PUSH_MAX_PAYLOAD_BYTES} (4096 encrypted)`,
        durationMs: elapsedMs(started),
        sent: false,
      };
    }
    const { ttlSeconds, urgency } = this.delivery(request.priority);
    let details: ReturnType<typeof webPush.generateRequestDetails>;
    try {
      details = webPush.generateRequestDetails({ endpoint: to.endpoint, keys: to.keys }, payload, {
        vapidDetails: this.#config.vapid,
        TTL: ttlSeconds,
        urgency: urgency as webPush.Urgency,
        contentEncoding: 'aes128gcm',
      });
    } catch {
      // web-push's messages can quote the subscription or the VAPID subject: never passed on.
      return {
        outcome: 'permanent',
        errorClass: 'invalid-subscription',
        message: 'the subscription keys cannot encrypt a payload',
        durationMs: elapsedMs(started),
        sent: false,
        addressInvalid: true,
      };
    }
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(details.headers)) {
      if (key.toLowerCase() !== 'content-length' && value !== undefined) headers[key] = String(value);
    }
    const response = await postWithin(details.endpoint, {
      headers,
      body: details.body ?? undefined,
      dispatcher: this.#agent,
      timeoutMs: this.#config.timeouts.requestMs,
      started,
    });
    if ('failure' in response) return response.failure;
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const location = response.headers.location;
      const messageId = typeof location === 'string' ? messageIdOf(location) : undefined;
      return { outcome: 'delivered', durationMs: elapsedMs(started), sent: true, ...(messageId ? { providerMessageId: messageId } : {}) };
    }
    return { ...classifyAnswer(response.statusCode, response.text), durationMs: elapsedMs(started), sent: true };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

/** The payload a service worker receives (`event.data.json()`): the rendered push JSON, as the renderer measured it. */
export function pushPayloadJson(payload: PushPayload): string {
  return JSON.stringify(payload);
}

/** The last segment of the push message resource (`Location: https://push.example/m/<id>`), short: the id, not the URL. */
function messageIdOf(location: string): string | undefined {
  const last = location.split('?')[0]?.split('/').filter(Boolean).pop();
  return last ? last.slice(0, 200) : undefined;
}
