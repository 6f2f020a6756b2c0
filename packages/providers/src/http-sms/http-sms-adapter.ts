import type { Pool } from 'undici';
import { classifyProviderStatus, type Channel } from '@notify/core';
import { elapsedMs, type ProviderAdapter, type ProviderCapabilities, type SendRequest, type SendResult } from '../adapter';
import { classifyHttpFailure, parseJsonObject, scrubProviderText } from '../network-failure';
import { providerPool } from '../post-once';
import { httpSmsProviderConfigSchema, type HttpSmsProviderConfig, type HttpSmsProviderConfigInput } from './config';

/**
 * SMS over HTTP in the REST shape many providers sell (Twilio-like): `POST <baseUrl>/Accounts/
 * <account>/Messages.json` with a form body To/From/Body[/StatusCallback] and Basic auth,
 * answered `201 {"sid": "SM..."}`. One undici Pool per adapter.
 * - 2xx: delivered (to the provider), providerMessageId = `sid` (or `id` / `message_id`).
 * - 401/403: transient: the credentials are the provider's configuration, not the recipient's
 *   fault; the breaker opens on it instead of every address failing.
 * - 429, 5xx: transient. 408/409: unknown. Other 4xx: permanent; with an error code of
 *   `invalidAddressCodes` (invalid number, not a mobile, unsubscribed) addressInvalid.
 * - A timeout after the request went out: unknown. A refused connection: transient, not sent.
 * Receipts come back later as status callbacks to `statusCallbackUrl` (capabilities.receipts).
 */
export class HttpSmsAdapter implements ProviderAdapter {
  readonly kind = 'http-sms' as const;
  readonly name: string;
  readonly channel: Channel = 'sms';
  readonly capabilities: ProviderCapabilities;
  readonly #pool: Pool;
  readonly #path: string;
  readonly #authorization: string;
  readonly #from: string;
  readonly #statusCallbackUrl: string | undefined;
  readonly #idempotencyHeader: string | undefined;
  readonly #invalidAddressCodes: ReadonlySet<number>;
  readonly #timeoutMs: number;

  constructor(config: HttpSmsProviderConfigInput | HttpSmsProviderConfig) {
    const c = httpSmsProviderConfigSchema.parse(config);
    const base = new URL(c.baseUrl);
    this.name = c.name;
    this.capabilities = Object.freeze({ idempotencyKey: c.idempotencyHeader !== undefined, lookup: false, receipts: true });
    this.#path = `${base.pathname.replace(/\/+$/, '')}${c.path.replaceAll('{account}', encodeURIComponent(c.account))}`;
    this.#authorization = `Basic ${Buffer.from(`${c.username ?? c.account}:${c.authToken}`, 'utf8').toString('base64')}`;
    this.#from = c.from;
    this.#statusCallbackUrl = c.statusCallbackUrl;
    this.#idempotencyHeader = c.idempotencyHeader?.toLowerCase();
    this.#invalidAddressCodes = new Set(c.invalidAddressCodes);
    this.#timeoutMs = c.timeoutMs;
    this.#pool = providerPool(base.origin, { connections: c.connections, timeoutMs: c.timeoutMs });
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (request.message.channel !== 'sms') throw new Error(`provider ${this.name} sends sms, not ${request.message.channel}`);
    if (typeof request.to !== 'string') throw new Error(`provider ${this.name} takes a phone number`);
    const form = new URLSearchParams({ To: request.to, From: this.#from, Body: request.message.sms.text });
    if (this.#statusCallbackUrl) form.set('StatusCallback', this.#statusCallbackUrl);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      accept: 'application/json',
      authorization: this.#authorization,
    };
    if (this.#idempotencyHeader) headers[this.#idempotencyHeader] = request.idempotencyKey;
    const started = performance.now();
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.#timeoutMs);
    try {
      const response = await this.#pool.request({ path: this.#path, method: 'POST', headers, body: form.toString(), signal: abort.signal });
      const body = parseJsonObject(await response.body.text());
      return this.#classify(response.statusCode, body, elapsedMs(started));
    } catch (error) {
      return classifyHttpFailure(error, abort.signal.aborted, elapsedMs(started));
    } finally {
      clearTimeout(timer);
    }
  }

  #classify(status: number, body: Record<string, unknown> | undefined, durationMs: number): SendResult {
    const outcome = classifyProviderStatus(status);
    if (outcome === 'delivered') {
      const id = [body?.sid, body?.id, body?.message_id].find((value) => typeof value === 'string' && value !== '') as string | undefined;
      return { outcome, durationMs, sent: true, ...(id ? { providerMessageId: id.slice(0, 120) } : {}) };
    }
    const code = typeof body?.code === 'number' ? body.code : typeof body?.error_code === 'number' ? body.error_code : undefined;
    const errorClass = code === undefined ? `http-${status}` : `http-${status}-${code}`;
    const text = typeof body?.message === 'string' ? scrubProviderText(body.message) : `provider answered ${status}`;
    if (status === 401 || status === 403) {
      return { outcome: 'transient', errorClass, message: `credentials refused: ${text}`, durationMs, sent: true };
    }
    return {
      outcome,
      errorClass,
      message: text,
      durationMs,
      sent: true,
      ...(outcome === 'permanent' && code !== undefined && this.#invalidAddressCodes.has(code) ? { addressInvalid: true } : {}),
    };
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}
