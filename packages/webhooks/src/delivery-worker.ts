import { DelayedError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { WebhookMetrics } from '@notify/metrics';
import { retryDelayMs, type WebhookConfig } from './config';
import { randomEventId } from './events';
import { WEBHOOK_QUEUE_NAME, WEBHOOK_QUEUE_PREFIX, webhookFailingSinceKey, webhookSemaphoreKey } from './keys';
import { WEBHOOK_BACKOFF_TYPE, type WebhookJobData, type WebhookPublisher } from './publisher';
import type { WebhookRegistry } from './registry';
import type { WebhookSender } from './sender';

/**
 * The per-endpoint semaphore: a sorted set of lease -> expiry on Redis' clock, so a worker that
 * died holding a lease frees its slot when the lease expires. KEYS: the set; ARGV: limit, lease
 * id, lease ms. Answers 1 when the lease is taken.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 2)
return 1`;

/** What a delivery job did (its BullMQ result, visible in bull-board). */
export type DeliveryJobResult =
  { action: 'delivered'; statusCode: number } | { action: 'dropped'; reason: 'endpoint-deleted' | 'endpoint-disabled' } | { action: 'endpoint-disabled' };

export interface DeliveryWorkerDeps {
  connection: ConnectionOptions;
  redis: Redis | Cluster;
  registry: WebhookRegistry;
  sender: WebhookSender;
  publisher: WebhookPublisher;
  metrics: WebhookMetrics;
  logger: Logger;
  config: WebhookConfig;
  now?: () => number;
}

/**
 * The webhooks' own bulkhead: a BullMQ worker on the `webhooks` queue with its own concurrency
 * (WEBHOOK_CONCURRENCY), separate from the channel lanes, so a slow or dead receiver holds only
 * webhook slots. Per endpoint, at most WEBHOOK_PER_ENDPOINT_CONCURRENCY calls run at once across
 * every worker (a Redis semaphore); a job finding its endpoint busy is put back, delayed, without
 * spending an attempt. A failed call throws, and BullMQ retries it after retryDelayMs; an endpoint
 * whose every delivery failed for WEBHOOK_DISABLE_AFTER_DAYS is disabled (and says so).
 */
export class WebhookDeliveryWorker {
  private worker: Worker<WebhookJobData, DeliveryJobResult> | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.now = deps.now ?? Date.now;
  }

  start(): void {
    const { config } = this.deps;
    this.worker = new Worker<WebhookJobData, DeliveryJobResult>(WEBHOOK_QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: this.deps.connection,
      prefix: WEBHOOK_QUEUE_PREFIX,
      concurrency: config.concurrency,
      // A call is bounded by WEBHOOK_TIMEOUT_MS: the lock outlives it comfortably.
      lockDuration: Math.max(30_000, config.timeoutMs * 3),
      settings: {
        backoffStrategy: (attemptsMade: number, type?: string) => (type === WEBHOOK_BACKOFF_TYPE ? retryDelayMs(config, attemptsMade) : 0),
      },
    });
    this.worker.on('error', (error) => this.deps.logger.warn({ err: error }, 'webhook worker error'));
  }

  async waitUntilReady(): Promise<void> {
    await this.worker?.waitUntilReady();
  }

  async process(job: Job<WebhookJobData, DeliveryJobResult>, token?: string): Promise<DeliveryJobResult> {
    const { registry, sender, metrics, config, redis } = this.deps;
    const { endpointId, tenant, event } = job.data;
    const endpoint = await registry.load(endpointId);
    if (!endpoint || endpoint.tenant !== tenant) return { action: 'dropped', reason: 'endpoint-deleted' };
    if (endpoint.disabled) return { action: 'dropped', reason: 'endpoint-disabled' };

    const lease = `${job.id ?? 'job'}:${token ?? ''}`;
    const semaphore = webhookSemaphoreKey(endpointId);
    const acquired = (await redis.eval(ACQUIRE, 1, semaphore, String(config.perEndpointConcurrency), lease, String(config.timeoutMs + 5_000))) === 1;
    if (!acquired) {
      // The endpoint is at its limit: back in the queue shortly, no attempt spent.
      await job.moveToDelayed(this.now() + 50 + Math.floor(Math.random() * 200), token);
      throw new DelayedError();
    }
    let result;
    try {
      result = await sender.send(endpoint, event, this.now());
    } finally {
      await redis.zrem(semaphore, lease).catch(() => undefined);
    }
    const outcome = result.ok ? 'success' : 'failure';
    metrics.deliveries.inc({ outcome, error_class: result.errorClass ?? 'none' });
    metrics.deliveryDuration.observe({ outcome }, result.latencyMs / 1000);
    await registry.recordDelivery(endpointId, {
      eventId: event.id,
      type: event.type,
      attempt: job.attemptsMade + 1,
      result: outcome,
      ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
      latencyMs: result.latencyMs,
      at: this.now(),
      ...(result.errorClass ? { errorClass: result.errorClass } : {}),
    });
    const failingSince = webhookFailingSinceKey(endpointId);
    if (result.ok) {
      await redis.del(failingSince);
      return { action: 'delivered', statusCode: result.statusCode ?? 200 };
    }
    // A run of failures: its start is kept (SET NX) until a success deletes it.
    await redis.set(failingSince, String(this.now()), 'NX');
    const since = Number(await redis.get(failingSince));
    if (since > 0 && this.now() - since >= config.disableAfterMs) {
      await this.disable(endpointId, tenant, config.disableAfterMs);
      return { action: 'endpoint-disabled' };
    }
    throw new Error(`webhook delivery failed: ${result.errorClass ?? 'failure'}${result.statusCode ? ` (${result.statusCode})` : ''}`);
  }

  private async disable(endpointId: string, tenant: string, afterMs: number): Promise<void> {
    const days = Math.round(afterMs / 86_400_000);
    const reason = `every delivery failed for ${days} day${days === 1 ? '' : 's'}`;
    if (!(await this.deps.registry.disable(endpointId, reason))) return;
    this.deps.metrics.endpointsDisabled.inc();
    this.deps.logger.warn({ endpointId }, 'webhook endpoint disabled after continuous failures');
    // The tenant's other endpoints listening to endpoint.disabled are told; GET /v1/webhooks/:id shows it too.
    await this.deps.publisher
      .publishNotificationEvent(tenant, {
        id: randomEventId(),
        type: 'endpoint.disabled',
        timestamp: new Date(this.now()).toISOString(),
        data: { endpointId, reason, disabledAt: this.now() },
      })
      .catch((error: unknown) => this.deps.logger.warn({ err: error, endpointId }, 'endpoint.disabled event not published'));
  }

  async close(): Promise<void> {
    await this.worker?.close();
  }
}
