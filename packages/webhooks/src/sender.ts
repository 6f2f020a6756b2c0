import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { Agent, buildConnector, request } from 'undici';
import { portOf } from './allowed-hosts';
import type { WebhookConfig } from './config';
import type { WebhookEvent } from './events';
import { signingSecrets, type WebhookEndpoint } from './endpoint';
import { checkHost, guardedLookup, hostOf, SsrfRefusedError, type Resolver } from './ssrf';

/** Bytes of a receiver's answer read (then dropped): its body is never used, only its status. */
export const RESPONSE_BODY_CAP = 4_096;

export interface SendResult {
  ok: boolean;
  statusCode?: number;
  latencyMs: number;
  /** Why it failed, in a bounded vocabulary (metrics label, the deliveries list). */
  errorClass?: 'ssrf-refused' | 'timeout' | 'connection-refused' | 'dns' | 'redirect' | 'http-4xx' | 'http-5xx' | 'http-other' | 'network' | 'bad-url';
}

/**
 * The Standard Webhooks signature header: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per
 * secret that signs now, space-separated (the current secret and, while its grace lasts, the
 * rotated-out one): a receiver holding either verifies.
 */
export function signatureHeader(secrets: readonly string[], eventId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' ');
}

function classify(error: unknown): NonNullable<SendResult['errorClass']> {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof SsrfRefusedError) return 'ssrf-refused';
    const code = (e as { code?: string }).code ?? '';
    const name = (e as { name?: string }).name ?? '';
    if (code === 'WEBHOOK_SSRF_REFUSED') return 'ssrf-refused';
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return 'connection-refused';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
    if (name === 'TimeoutError' || name === 'AbortError' || code.includes('TIMEOUT')) return 'timeout';
  }
  return 'network';
}

/**
 * POSTs events to endpoints: signed, through the SSRF guard (an Agent whose lookup checks and
 * pins the addresses), short timeouts, no redirects followed (undici's request does not follow
 * them), the answer's body read up to RESPONSE_BODY_CAP and dropped. Success is a 2xx.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly guard: { allowedHosts: readonly string[]; resolve?: Resolver };

  constructor(
    private readonly config: Pick<WebhookConfig, 'allowedHosts' | 'connectTimeoutMs' | 'timeoutMs'>,
    options: { resolve?: Resolver } = {},
  ) {
    this.guard = { allowedHosts: config.allowedHosts, ...(options.resolve ? { resolve: options.resolve } : {}) };
    // One connector per port: an allow-list entry may name a port, and a lookup sees only the host.
    const connectors = new Map<number, buildConnector.connector>();
    const connectorFor = (port: number) => {
      let connector = connectors.get(port);
      if (!connector) {
        connector = buildConnector({ timeout: config.connectTimeoutMs, lookup: guardedLookup(this.guard, port) });
        connectors.set(port, connector);
      }
      return connector;
    };
    this.agent = new Agent({
      connect: (opts, callback) => connectorFor(opts.port ? Number(opts.port) : opts.protocol === 'https:' ? 443 : 80)(opts, callback),
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
      keepAliveTimeout: 4_000,
      connections: 64,
    });
  }

  async send(endpoint: WebhookEndpoint, event: WebhookEvent, now = Date.now()): Promise<SendResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(endpoint.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, latencyMs: 0, errorClass: 'bad-url' };
    } catch {
      return { ok: false, latencyMs: 0, errorClass: 'bad-url' };
    }
    const body = JSON.stringify(event);
    const at = new Date(now);
    const signal = AbortSignal.timeout(this.config.timeoutMs);
    try {
      // An IP literal never reaches the lookup: checked here (names are checked by the lookup).
      const host = hostOf(url);
      if (ipaddr.isValid(host)) await checkHost(host, this.guard, portOf(url));
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'notify-webhooks/1',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(now / 1000)),
          'webhook-signature': signatureHeader(signingSecrets(endpoint, now), event.id, at, body),
        },
        body,
      });
      await response.body.dump({ limit: RESPONSE_BODY_CAP, signal }).catch(() => undefined);
      const statusCode = response.statusCode;
      if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode, latencyMs: latency() };
      const errorClass = statusCode >= 300 && statusCode < 400 ? 'redirect' : statusCode >= 500 ? 'http-5xx' : statusCode >= 400 ? 'http-4xx' : 'http-other';
      return { ok: false, statusCode, latencyMs: latency(), errorClass };
    } catch (error) {
      return { ok: false, latencyMs: latency(), errorClass: classify(error) };
    }
  }

  private closing: Promise<void> | undefined;

  /** Closes the connections (idempotent). */
  close(): Promise<void> {
    this.closing ??= this.agent.close();
    return this.closing;
  }
}
