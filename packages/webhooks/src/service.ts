import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { WebhookConfig } from './config';
import { webhookJobId } from './keys';
import { ListeningEndpointsCache } from './listening-cache';
import { createWebhookQueue, WebhookPublisher } from './publisher';
import { WebhookRegistry } from './registry';
import { SecretBox } from './secret-box';
import { portOf } from './allowed-hosts';
import { checkHost, hostOf, SsrfRefusedError, type Resolver } from './ssrf';

/** Rotated-out secrets keep signing this long. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** The api's side of the webhooks: the registry, the queue (retries, events), the URL check. */
export function createWebhookService(deps: {
  redis: Redis | Cluster;
  config: WebhookConfig;
  logger: Logger;
  resolve?: Resolver;
  registrationDnsTimeoutMs?: number;
  /** PARTITIONS: where the step hook finds a notification's record (its id names its partition). */
  partitions?: number;
}) {
  const registry = new WebhookRegistry(deps.redis, Date.now, new SecretBox(deps.config.secretKeys));
  const queue = createWebhookQueue(deps.redis, deps.config);
  // The step hook's endpoint lists; its subscriber opens with the first stepEvents() (the api's routes read the registry).
  const cache = new ListeningEndpointsCache({
    redis: deps.redis,
    load: (tenant) => registry.list(tenant),
    ttlMs: deps.config.endpointCacheMs,
    logger: deps.logger,
  });
  const publisher = new WebhookPublisher({ redis: deps.redis, registry, queue, logger: deps.logger, partitions: deps.partitions ?? 1, cache });
  const dnsTimeoutMs = deps.registrationDnsTimeoutMs ?? 2_000;

  /**
   * The registration check of an endpoint URL: a reason to refuse, or undefined. http(s) only, no
   * credentials in the URL, and the host's addresses public (or the host allow-listed). A name
   * that does not resolve now is accepted: the send-time check decides on what it resolves to then.
   */
  async function urlRefusal(raw: string): Promise<string | undefined> {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
    if (url.username || url.password) return 'must not carry credentials';
    if (!url.hostname) return 'must name a host';
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        checkHost(hostOf(url), { allowedHosts: deps.config.allowedHosts, ...(deps.resolve ? { resolve: deps.resolve } : {}) }, portOf(url)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, dnsTimeoutMs);
        }),
      ]);
      return undefined;
    } catch (error) {
      if (error instanceof SsrfRefusedError)
        return `refused: ${error.message.replace(/^webhook endpoint refused: /, '')} (private, loopback, link-local and metadata addresses are not allowed)`;
      return undefined; // DNS failure: decided at send time
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Re-sends one event to one endpoint now: a failed job is retried (attempts anew), a delayed
   * one promoted, a delivered one sent again under a new job; one waiting or running is left be.
   * Answers the job's state before, or undefined when the job is not kept (any more).
   */
  async function retry(endpointId: string, eventId: string): Promise<string | undefined> {
    const job = await queue.getJob(webhookJobId(endpointId, eventId));
    if (!job) return undefined;
    const state = await job.getState();
    if (state === 'failed') await job.retry('failed');
    else if (state === 'delayed') await job.promote();
    else if (state === 'completed') await queue.add(job.name, job.data, { jobId: `${webhookJobId(endpointId, eventId)}-r${Date.now()}` });
    return state;
  }

  return {
    registry,
    queue,
    publisher,
    cache,
    urlRefusal,
    retry,
    async close() {
      await queue.close();
      await cache.close();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
