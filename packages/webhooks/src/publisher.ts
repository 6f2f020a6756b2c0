import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { notificationKey, partitionOfId } from '@notify/core';
import { toNotificationView, type RecordFields } from '@notify/pipeline';
import type { WebhookConfig } from './config';
import { notificationEvent, type NotificationEventType, type WebhookEvent } from './events';
import { WEBHOOK_QUEUE_NAME, WEBHOOK_QUEUE_PREFIX, webhookJobId } from './keys';
import type { ListeningEndpointsCache } from './listening-cache';
import type { WebhookEndpoint } from './endpoint';
import type { WebhookRegistry } from './registry';

/** A webhook delivery job: one event to one endpoint. The payload is the event itself (no address, no content). */
export interface WebhookJobData {
  tenant: string;
  endpointId: string;
  event: WebhookEvent;
}

export const WEBHOOK_BACKOFF_TYPE = 'webhook';

/**
 * Every delivery job: `attempts` calls, the delays of the worker's backoff strategy
 * (retryDelayMs). Completed jobs are kept a day (at most 10,000) and failed ones a week, so
 * `POST /v1/webhooks/:id/deliveries/:eventId/retry` finds them.
 */
export function webhookJobOptions(config: Pick<WebhookConfig, 'maxAttempts'>): JobsOptions {
  return {
    attempts: config.maxAttempts,
    backoff: { type: WEBHOOK_BACKOFF_TYPE },
    removeOnComplete: { age: 86_400, count: 10_000 },
    removeOnFail: { age: 7 * 86_400 },
  };
}

/** The webhooks queue: its own name and prefix (hash tag), apart from the channel lanes. */
export function createWebhookQueue(connection: ConnectionOptions, config: Pick<WebhookConfig, 'maxAttempts'>): Queue<WebhookJobData> {
  return new Queue<WebhookJobData>(WEBHOOK_QUEUE_NAME, {
    connection,
    prefix: WEBHOOK_QUEUE_PREFIX,
    defaultJobOptions: webhookJobOptions(config),
    streams: { events: { maxLen: 1_000 } },
  });
}

/**
 * The step processor's hook (packages/pipeline's `events` dependency). `tenant`: the
 * notification's tenant when the caller has it at hand (it saves the hook a read per event);
 * absent, the hook reads it from the record.
 */
export interface StepEventSink {
  publish(event: { type: NotificationEventType; notificationId: string; step?: number; tenant?: string }): Promise<void>;
}

/**
 * Enqueues one delivery job per endpoint of the tenant that listens to the event's type and is
 * not disabled. The job id is (endpoint, event id): publishing the same event twice while its
 * job is kept adds nothing.
 */
export class WebhookPublisher {
  constructor(
    private readonly deps: {
      redis: Redis | Cluster;
      registry: WebhookRegistry;
      queue: Queue<WebhookJobData>;
      logger: Logger;
      now?: () => number;
      partitions?: number;
      /** The step hook's endpoint lists (listening-cache.ts); absent: read per event. */
      cache?: ListeningEndpointsCache;
    },
  ) {}

  /** Answers how many deliveries were enqueued. */
  async publishNotificationEvent(tenant: string, event: WebhookEvent): Promise<number> {
    return this.enqueue(tenant, await this.listening(tenant, event.type), event);
  }

  /**
   * The hook the step processor calls where a notification ends (or an attempt failed). It
   * asks the record's tenant first and reads the whole record (the status object as the api
   * shows it) only when an endpoint of that tenant listens to the event: most tenants have
   * none, and the whole record, its view and the event's id cost the worker CPU on every
   * delivery (docs/benchmarks-pipeline.md, "Settings the figures depend on"). For the same reason the
   * tenant comes from the caller when it has it (the step processor reads it with the attempt),
   * and the tenant's endpoint list from the cache, which costs no command while it holds it.
   */
  stepEvents(): StepEventSink {
    const cache = this.deps.cache;
    cache?.start();
    return {
      publish: async ({ type, notificationId, step, tenant: known }) => {
        const key = notificationKey(notificationId, partitionOfId(notificationId, this.deps.partitions ?? 1));
        const tenant = known || (await this.deps.redis.hget(key, 'tenant'));
        if (!tenant) return; // expired or archived already: nothing to say
        const all = cache ? await cache.list(tenant) : await this.deps.registry.list(tenant);
        const endpoints = listeningTo(all, type);
        if (endpoints.length === 0) return;
        const fields = (await this.deps.redis.hgetall(key)) as RecordFields;
        if (!fields.id || !fields.tenant) return;
        const now = (this.deps.now ?? Date.now)();
        await this.enqueue(fields.tenant, endpoints, notificationEvent(type, toNotificationView(fields), now, type === 'attempt.failed' ? step : undefined));
      },
    };
  }

  /** The tenant's endpoints that listen to `type` and are not disabled (read now, never cached). */
  private async listening(tenant: string, type: WebhookEvent['type']): Promise<WebhookEndpoint[]> {
    return listeningTo(await this.deps.registry.list(tenant), type);
  }

  private async enqueue(tenant: string, endpoints: WebhookEndpoint[], event: WebhookEvent): Promise<number> {
    if (endpoints.length === 0) return 0;
    // One add per endpoint, not addBulk: ioredis builds each pipeline by copying every defined
    // script onto it, which costs more than the adds (usually one) it would carry.
    await Promise.all(
      endpoints.map((endpoint) => this.deps.queue.add(event.type, { tenant, endpointId: endpoint.id, event }, { jobId: webhookJobId(endpoint.id, event.id) })),
    );
    return endpoints.length;
  }
}

function listeningTo(endpoints: readonly WebhookEndpoint[], type: WebhookEvent['type']): WebhookEndpoint[] {
  return endpoints.filter((e) => !e.disabled && e.events.includes(type));
}
