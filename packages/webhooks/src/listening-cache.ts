import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { WEBHOOK_ENDPOINTS_CHANGED_CHANNEL, webhookTenantKey } from './keys';
import type { WebhookEndpoint } from './endpoint';

/** Tenants whose lists are kept at most; the oldest stored goes first. */
export const LISTENING_CACHE_MAX_TENANTS = 10_000;

interface Entry {
  endpoints: readonly WebhookEndpoint[];
  expiresAt: number;
}

/**
 * The step hook's copy of each tenant's endpoint list (what WebhookRegistry.list answers). The
 * hook runs on every delivery and most tenants have no endpoint: reading the list each time
 * (SMEMBERS, then HGETALL per endpoint) cost the worker ~13 % CPU and Redis ~9 % per notification.
 *
 * Freshness: every registry write PUBLISHes the tenant on WEBHOOK_ENDPOINTS_CHANGED_CHANNEL in
 * the same script or MULTI, and this cache, subscribed on its own connection, forgets that
 * tenant. While it is not subscribed (starting, reconnecting, after an error) it is bypassed
 * (every read goes to Redis), and each (re)subscription empties it: an invalidation missed while
 * away cannot leave a stale list behind. The TTL only bounds what no message can say (on a
 * Cluster, ioredis moving its subscriber to another node unseen between two of its events).
 */
export class ListeningEndpointsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxTenants: number;
  private readonly now: () => number;
  private subscriber: Redis | Cluster | undefined;
  private subscribed = false;
  private closed = false;
  /**
   * The race guard: bumped by every invalidation (any tenant) and every loss or gain of the
   * subscription. A list read that began before a bump may hold what the write replaced; it is
   * answered but not stored. Global, not per tenant: endpoint writes are rare, and it stays bounded.
   */
  private generation = 0;
  /** Bumped by every loss of the subscription: a SUBSCRIBE answered after one does not count. */
  private epoch = 0;

  constructor(
    private readonly deps: {
      redis: Redis | Cluster;
      /** The read the cache stands for (registry.list). */
      load: (tenant: string) => Promise<WebhookEndpoint[]>;
      /** WEBHOOK_ENDPOINT_CACHE_MS; 0: never kept, no subscriber. */
      ttlMs: number;
      logger: Logger;
      maxTenants?: number;
      now?: () => number;
    },
  ) {
    this.maxTenants = deps.maxTenants ?? LISTENING_CACHE_MAX_TENANTS;
    this.now = deps.now ?? Date.now;
  }

  /** True while subscribed: lists are kept (and a kept one answers without a Redis command). */
  get active(): boolean {
    return this.subscribed;
  }

  /** Tenants kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Opens the subscriber connection (once; never with a TTL of 0 or after close). */
  start(): void {
    if (this.subscriber || this.closed || this.deps.ttlMs <= 0) return;
    const subscriber = (this.deps.redis as Redis).duplicate() as Redis | Cluster;
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, tenantKey: string) => {
      if (channel === WEBHOOK_ENDPOINTS_CHANGED_CHANNEL) this.invalidate(tenantKey);
    });
    subscriber.on('ready', () => void this.subscribe());
    for (const event of ['close', 'end', 'reconnecting']) subscriber.on(event, () => this.lose());
    subscriber.on('error', (error: unknown) => {
      // Said once per loss: a Redis down fires an error per reconnect attempt.
      if (this.subscribed) this.deps.logger.warn({ err: error }, 'webhook endpoint cache subscriber error: bypassed until subscribed again');
      this.lose();
      this.resubscribeSoon();
    });
    // A Cluster's subscriber lives on one node that ioredis replaces when it goes: on any node
    // trouble, bypass and subscribe again (which also empties the cache).
    for (const event of ['-node', 'node error']) {
      subscriber.on(event, () => {
        this.lose();
        this.resubscribeSoon();
      });
    }
    if (subscriber.status === 'ready') void this.subscribe();
  }

  /** The tenant's endpoints: the kept list while subscribed and fresh, else read (and kept if still valid). */
  async list(tenant: string): Promise<readonly WebhookEndpoint[]> {
    if (!this.subscribed) return this.deps.load(tenant);
    const key = webhookTenantKey(tenant);
    const started = this.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > started) return entry.endpoints;
    if (entry) this.entries.delete(key);
    const generation = this.generation;
    const endpoints = await this.deps.load(tenant);
    // Stored only if no invalidation (nor subscription change) arrived while it was read.
    if (this.subscribed && generation === this.generation) this.store(key, endpoints, started + this.deps.ttlMs);
    return endpoints;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.lose();
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private store(key: string, endpoints: readonly WebhookEndpoint[], expiresAt: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxTenants) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { endpoints, expiresAt });
  }

  private invalidate(tenantKey: string): void {
    this.generation += 1;
    this.entries.delete(tenantKey);
  }

  /** Not subscribed (any more): bypass, and let no read begun before be stored. */
  private lose(): void {
    this.subscribed = false;
    this.epoch += 1;
    this.generation += 1;
    this.entries.clear();
  }

  private resubscribeSoon(): void {
    if (this.closed) return;
    setTimeout(() => {
      if (!this.closed && !this.subscribed && this.subscriber?.status === 'ready') void this.subscribe();
    }, 200).unref();
  }

  /** (Re)subscribes; on success the cache starts empty and is used again. */
  private async subscribe(): Promise<void> {
    const subscriber = this.subscriber;
    if (!subscriber || this.closed) return;
    const epoch = this.epoch;
    try {
      await subscriber.subscribe(WEBHOOK_ENDPOINTS_CHANGED_CHANNEL);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'webhook endpoint cache not subscribed: bypassed');
      this.resubscribeSoon();
      return;
    }
    // A loss while the SUBSCRIBE was on its way: the next 'ready' (or retry) subscribes again.
    if (this.closed || epoch !== this.epoch) {
      if (!this.closed && !this.subscribed) this.resubscribeSoon();
      return;
    }
    this.entries.clear();
    this.generation += 1;
    this.subscribed = true;
  }
}
