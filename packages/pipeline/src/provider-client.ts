import { Pool, errors as undiciErrors } from 'undici';
import { classifyNetworkError, classifyProviderStatus, type AttemptOutcome, type Channel, type RenderedMessage } from '@notify/core';

export interface ProviderCallResult {
  outcome: AttemptOutcome;
  /** A short machine-readable class: http-503, ECONNREFUSED, timeout, invalid-address... */
  errorClass?: string;
  message?: string;
  durationMs: number;
  /** The provider recognised the idempotency key and did not deliver again. */
  replayed?: boolean;
  /**
   * False when the request provably never left: the connection was refused or could not be
   * made before a byte was written (the budget does not count such a call; see README).
   */
  sent: boolean;
}

export interface ProviderEndpoint {
  url: string;
  connections: number;
  timeoutMs: number;
}

/**
 * HTTP client of the channel providers: one keep-alive connection pool per channel (part of
 * the bulkhead: a slow provider exhausts only its own sockets). Every call carries the
 * notification's idempotency key, so a re-send after an unknown outcome is a reconciliation,
 * not a second delivery.
 */
export class ProviderClient {
  private readonly pools = new Map<Channel, { pool: Pool; endpoint: ProviderEndpoint }>();

  constructor(endpoints: Record<Channel, ProviderEndpoint>) {
    for (const [channel, endpoint] of Object.entries(endpoints) as [Channel, ProviderEndpoint][]) {
      const pool = new Pool(endpoint.url, {
        connections: endpoint.connections,
        keepAliveTimeout: 30_000,
        connectTimeout: Math.min(endpoint.timeoutMs, 2_000),
        headersTimeout: endpoint.timeoutMs,
        bodyTimeout: endpoint.timeoutMs,
      });
      this.pools.set(channel, { pool, endpoint });
    }
  }

  async send(channel: Channel, to: string, message: RenderedMessage, idempotencyKey: string): Promise<ProviderCallResult> {
    const entry = this.pools.get(channel);
    if (!entry) throw new Error(`no provider endpoint configured for channel ${channel}`);
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), entry.endpoint.timeoutMs);
    try {
      const response = await entry.pool.request({
        path: '/v1/messages',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify({ to, message }),
        signal: abort.signal,
      });
      const text = await response.body.text();
      const outcome = classifyProviderStatus(response.statusCode);
      const body = parseJson(text);
      if (outcome === 'delivered') {
        return { outcome, durationMs: elapsed(), replayed: body?.replayed === true, sent: true };
      }
      return {
        outcome,
        errorClass: typeof body?.error === 'string' ? body.error : `http-${response.statusCode}`,
        message: typeof body?.message === 'string' ? body.message.slice(0, 300) : `provider answered ${response.statusCode}`,
        durationMs: elapsed(),
        sent: true,
      };
    } catch (error) {
      return classifyFailure(error, abort.signal.aborted, elapsed());
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map(({ pool }) => pool.close()));
  }
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function classifyFailure(error: unknown, timedOut: boolean, durationMs: number): ProviderCallResult {
  const err = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? err.name ?? 'error';
  if (timedOut || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    // The request went out and no answer came: the provider may have delivered it.
    return { outcome: 'unknown', errorClass: 'timeout', message: 'no answer within the call timeout', durationMs, sent: true };
  }
  // Errors raised while connecting (undici writes nothing before the socket is connected).
  // A reset or a closed socket after that may follow a written request: not provable, so sent.
  const notSent = NOT_SENT_CODES.has(code);
  const outcome = classifyNetworkError({ code }, !notSent);
  return { outcome, errorClass: code, message: (err.message ?? String(error)).slice(0, 300), durationMs, sent: !notSent };
}
