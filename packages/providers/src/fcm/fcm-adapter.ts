import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { request as undiciRequest, type Agent } from 'undici';
import type { PushPayload } from '@notify/core';
import { elapsedMs, type ProviderAdapter, type ProviderCapabilities, type SendRequest, type SendResult } from '../adapter';
import { postWithin } from '../http-post';
import { providerAgent } from '../provider-agent';
import { classifyHttpFailure, parseJsonObject } from '../network-failure';
import { classifyFcmError, classifyTokenAnswer, type Classified } from './fcm-errors';
import { FCM_SCOPE, fcmProviderConfigSchema, loadServiceAccount, type FcmProviderConfig, type FcmProviderConfigInput, type ServiceAccount } from './config';

/** FCM refuses messages whose notification and data exceed 4096 bytes; measured as the rendered JSON of title, body and data. */
export const FCM_MAX_PAYLOAD_BYTES = 4_096;

const CAPABILITIES: ProviderCapabilities = Object.freeze({ idempotencyKey: false, lookup: false, receipts: false, maxPayloadBytes: FCM_MAX_PAYLOAD_BYTES });

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** An access token and when to stop using it (ms, the adapter's clock). */
interface AccessToken {
  value: string;
  refreshAt: number;
}

type TokenResult = { token: string } | { failure: Classified };

/** Test seams: a clock for token expiry. */
export interface FcmAdapterOptions {
  now?: () => number;
}

/**
 * FCM HTTP v1: a service account signs an RS256 JWT assertion (jose) for the OAuth2 JWT bearer
 * grant (RFC 7523); the access token is cached until `tokenRefreshMarginSeconds` before it
 * expires (one request for it at a time), dropped and fetched again once when messages:send
 * answers 401. `POST /v1/projects/{project}/messages:send` with the device token, the
 * notification (title, body), the data (string values) and the Android / APNs priority and TTL
 * of the notification's priority.
 * Errors: UNREGISTERED permanent + addressInvalid; INVALID_ARGUMENT permanent; SENDER_ID_MISMATCH,
 * THIRD_PARTY_AUTH_ERROR, PERMISSION_DENIED permanent (configuration errors); UNAVAILABLE,
 * INTERNAL, QUOTA_EXCEEDED, 429, 5xx transient; a timeout after messages:send was written unknown.
 * A token request that fails sends nothing: transient (or permanent when the grant is refused),
 * never unknown, `sent: false`. FCM takes no idempotency key: a re-send may notify twice.
 */
export class FcmAdapter implements ProviderAdapter {
  readonly kind = 'fcm' as const;
  readonly name: string;
  readonly channel = 'push' as const;
  readonly capabilities = CAPABILITIES;
  readonly #config: FcmProviderConfig;
  readonly #account: ServiceAccount;
  readonly #key: KeyObject;
  readonly #tokenUrl: string;
  readonly #sendUrl: string;
  readonly #agent: Agent;
  readonly #now: () => number;
  #token: AccessToken | undefined;
  #tokenRequest: Promise<TokenResult> | undefined;
  /** Token requests made (for tests and metrics). */
  tokenRequests = 0;

  constructor(config: FcmProviderConfigInput | FcmProviderConfig, options: FcmAdapterOptions = {}) {
    const c = fcmProviderConfigSchema.parse(config);
    this.#config = c;
    this.name = c.name;
    this.#account = loadServiceAccount(c.serviceAccount);
    this.#key = createPrivateKey(this.#account.private_key);
    this.#tokenUrl = c.tokenUrl ?? this.#account.token_uri;
    this.#sendUrl = `${c.apiBaseUrl.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(this.#account.project_id)}/messages:send`;
    this.#now = options.now ?? Date.now;
    this.#agent = providerAgent(c);
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (request.message.channel !== 'push') throw new Error(`provider ${this.name} sends push, not ${request.message.channel}`);
    const started = performance.now();
    const done = (result: Classified, sent: boolean): SendResult => ({ ...result, durationMs: elapsedMs(started), sent });
    if (typeof request.to !== 'string' || request.to.startsWith('{')) {
      return done({ outcome: 'permanent', errorClass: 'not-a-device-token', message: 'FCM needs a device token, not a Web Push subscription' }, false);
    }
    const payload = request.message.push.payload;
    const bytes = Buffer.byteLength(JSON.stringify(payload), 'utf8');
    if (bytes > FCM_MAX_PAYLOAD_BYTES) {
      return done(
        { outcome: 'permanent', errorClass: 'payload-too-large', message: `the push payload is ${bytes} bytes; FCM carries at most ${FCM_MAX_PAYLOAD_BYTES}` },
        false,
      );
    }
    const body = JSON.stringify({ message: this.#message(request.to, payload, request.priority) });

    for (let attempt = 0; ; attempt += 1) {
      const token = await this.#accessToken();
      if ('failure' in token) return done(token.failure, false);
      const response = await postWithin(this.#sendUrl, {
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json; charset=utf-8' },
        body,
        dispatcher: this.#agent,
        timeoutMs: this.#config.timeouts.requestMs,
        started,
      });
      if ('failure' in response) return response.failure;
      const answer = parseJsonObject(response.text);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        const name = typeof answer?.name === 'string' ? answer.name.slice(0, 200) : undefined;
        return done({ outcome: 'delivered', ...(name ? { providerMessageId: name } : {}) }, true);
      }
      const classified = classifyFcmError(response.statusCode, answer);
      // An access token FCM no longer takes (revoked, expired early): a fresh one, once. Nothing was delivered.
      if (classified.errorClass === 'UNAUTHENTICATED' || (response.statusCode === 401 && classified.errorClass === 'http-401')) {
        if (this.#token?.value === token.token) this.#token = undefined;
        if (attempt === 0) continue;
      }
      return done(classified, true);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  #message(token: string, payload: PushPayload, priority: SendRequest['priority']): Record<string, unknown> {
    const delivery = this.#config.delivery[priority];
    return {
      token,
      notification: { title: payload.title, body: payload.body },
      ...(payload.data && Object.keys(payload.data).length > 0 ? { data: payload.data } : {}),
      android: { priority: delivery.androidPriority, ttl: `${delivery.ttlSeconds}s` },
      apns: { headers: { 'apns-priority': delivery.apnsPriority, 'apns-expiration': String(Math.floor(this.#now() / 1000) + delivery.ttlSeconds) } },
    };
  }

  /** The cached access token, or one request for a new one shared by every send waiting for it. */
  async #accessToken(): Promise<TokenResult> {
    if (this.#token && this.#now() < this.#token.refreshAt) return { token: this.#token.value };
    this.#tokenRequest ??= this.#requestToken().finally(() => {
      this.#tokenRequest = undefined;
    });
    return this.#tokenRequest;
  }

  async #requestToken(): Promise<TokenResult> {
    this.tokenRequests += 1;
    const issuedAt = Math.floor(this.#now() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(this.#account.private_key_id ? { kid: this.#account.private_key_id } : {}) })
      .setIssuer(this.#account.client_email)
      .setAudience(this.#tokenUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 3_600)
      .sign(this.#key);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.#config.timeouts.tokenMs);
    try {
      const response = await undiciRequest(this.#tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
        dispatcher: this.#agent,
        signal: abort.signal,
      });
      const answer = parseJsonObject(await response.body.text());
      if (response.statusCode >= 200 && response.statusCode < 300 && typeof answer?.access_token === 'string') {
        const expiresIn = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3_600;
        const margin = Math.min(this.#config.tokenRefreshMarginSeconds, expiresIn / 2);
        this.#token = { value: answer.access_token, refreshAt: this.#now() + (expiresIn - margin) * 1_000 };
        return { token: answer.access_token };
      }
      return { failure: classifyTokenAnswer(response.statusCode, answer) };
    } catch (error) {
      const failed = classifyHttpFailure(error, abort.signal.aborted, 0);
      // No message left: whatever became of the token request, the notification was not sent.
      return {
        failure: {
          outcome: 'transient',
          errorClass: `oauth-${failed.errorClass ?? 'error'}`,
          message: `no access token: ${failed.message ?? 'the token request failed'}`,
        },
      };
    } finally {
      clearTimeout(timer);
    }
  }
}
