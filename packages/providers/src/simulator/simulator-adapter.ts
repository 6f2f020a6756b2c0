import type { Pool } from 'undici';
import { classifyProviderStatus, type Channel } from '@notify/core';
import { elapsedMs, type ProviderAdapter, type ProviderCapabilities, type SendRequest, type SendResult } from '../adapter';
import { classifyHttpFailure, parseJsonObject, scrubProviderText } from '../network-failure';
import { postOnce, providerPool } from '../post-once';
import { simulatorProviderConfigSchema, type SimulatorProviderConfig, type SimulatorProviderConfigInput } from './config';

/** The simulators' capabilities (every simulator the same). */
export const SIMULATOR_CAPABILITIES: ProviderCapabilities = Object.freeze({ idempotencyKey: true, lookup: true, receipts: false, echoesIdempotencyKey: true });

/**
 * The simulators' HTTP API behind the adapter contract: `POST /v1/messages` with the
 * notification's Idempotency-Key, over one keep-alive undici Pool per adapter (the provider's
 * bulkhead: a slow provider exhausts only its own sockets). The simulator replays a delivered
 * key (`replayed: true`), so a re-send after an unknown outcome is a reconciliation.
 * Classification is the pipeline's ProviderClient's: 2xx delivered, 429/5xx transient,
 * 408/409 unknown, other 4xx permanent; a timeout after the request went out is unknown;
 * a refused connection is transient and not sent. The call goes through undici's dispatch
 * API (post-once.ts): `request()`'s stream and AbortSignal cost more CPU than these answers.
 */
export class SimulatorAdapter implements ProviderAdapter {
  readonly kind = 'simulator' as const;
  readonly name: string;
  readonly channel: Channel;
  readonly capabilities = SIMULATOR_CAPABILITIES;
  readonly #pool: Pool;
  readonly #timeoutMs: number;

  constructor(config: SimulatorProviderConfigInput | SimulatorProviderConfig) {
    const c = simulatorProviderConfigSchema.parse(config);
    this.name = c.name;
    this.channel = c.channel;
    this.#timeoutMs = c.timeoutMs;
    this.#pool = providerPool(new URL(c.url).origin, { connections: c.connections, timeoutMs: c.timeoutMs });
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (request.message.channel !== this.channel) throw new Error(`provider ${this.name} sends ${this.channel}, not ${request.message.channel}`);
    const started = performance.now();
    const answer = await postOnce(this.#pool, {
      path: '/v1/messages',
      headers: ['content-type', 'application/json', 'idempotency-key', request.idempotencyKey],
      // A Web Push subscription reaches the simulator as the JSON text the record keeps.
      body: JSON.stringify({ to: typeof request.to === 'string' ? request.to : JSON.stringify(request.to), message: request.message }),
      timeoutMs: this.#timeoutMs,
    });
    if (!answer.ok) return classifyHttpFailure(answer.error, answer.timedOut, elapsedMs(started));
    const body = parseJsonObject(answer.body);
    const outcome = classifyProviderStatus(answer.statusCode);
    if (outcome === 'delivered') {
      // The simulator keys its ledger by the idempotency key: that is its message id (for provider events in tests).
      return { outcome, durationMs: elapsedMs(started), replayed: body?.replayed === true, sent: true, providerMessageId: request.idempotencyKey };
    }
    return {
      outcome,
      errorClass: typeof body?.error === 'string' ? body.error.slice(0, 60) : `http-${answer.statusCode}`,
      message: typeof body?.message === 'string' ? scrubProviderText(body.message) : `provider answered ${answer.statusCode}`,
      durationMs: elapsedMs(started),
      sent: true,
      ...(outcome === 'permanent' && body?.error === 'invalid-address' ? { addressInvalid: true } : {}),
    };
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}
