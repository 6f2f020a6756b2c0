import { randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './events';
import {
  WEBHOOK_ENDPOINTS_CHANGED_CHANNEL,
  webhookDeliveriesKey,
  webhookEndpointKey,
  webhookFailingSinceKey,
  webhookSemaphoreKey,
  webhookTenantKey,
} from './keys';

export const WEBHOOK_LIMITS = { urlLength: 2_048, descriptionLength: 500, deliveriesKept: 100 } as const;

/** `POST /v1/webhooks`' body; unknown fields refused. The URL's SSRF check is separate (async). */
export const webhookEndpointRequestSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(WEBHOOK_LIMITS.urlLength)
      .refine((text) => URL.canParse(text), 'must be an absolute URL'),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .refine((list) => !Array.isArray(list) || new Set(list).size === list.length, 'must not repeat an event type'),
    description: z.string().max(WEBHOOK_LIMITS.descriptionLength).optional(),
  })
  .strict();
export type WebhookEndpointRequest = z.infer<typeof webhookEndpointRequestSchema>;

export const ENDPOINT_ID_PATTERN = /^ep_[0-9a-f]{24}$/;

/** What the tenant sees of an endpoint: never a secret. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: WebhookEventType[];
  description?: string;
  createdAt: number;
  disabled: boolean;
  disabledReason?: string;
  disabledAt?: number;
  /** While a rotated-out secret still signs (the grace period), until when. */
  previousSecretExpiresAt?: number;
}

/** The endpoint with its secrets, for the delivery worker. */
export interface WebhookEndpoint extends WebhookEndpointView {
  tenant: string;
  secret: string;
  previousSecret?: string;
}

/** One delivery attempt, as `GET /v1/webhooks/:id/deliveries` lists it. */
export interface DeliveryRecord {
  eventId: string;
  type: string;
  attempt: number;
  /** success: a 2xx; failure: anything else (the error class says what). */
  result: 'success' | 'failure';
  statusCode?: number;
  latencyMs: number;
  at: number;
  errorClass?: string;
}

/** Standard Webhooks' secret form: `whsec_` + base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

// Every write below PUBLISHes the tenant's set key on WEBHOOK_ENDPOINTS_CHANGED_CHANNEL in the
// same script (or MULTI): the step hook's cached endpoint lists (listening-cache.ts) hear of
// every change, none can be written without it.

// KEYS: tenant set, endpoint hash; ARGV: channel, max, id, then field/value pairs.
const CREATE = `
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('PUBLISH', ARGV[1], KEYS[1])
return 1`;

// KEYS: endpoint hash; ARGV: channel, the tenant's set key (the message), then field/value pairs.
// Writes only to an endpoint that still exists.
const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1`;

function fromHash(fields: Record<string, string>): WebhookEndpoint | undefined {
  if (!fields.id || !fields.tenant || !fields.secret) return undefined;
  const expires = fields.previousSecretExpiresAt ? Number(fields.previousSecretExpiresAt) : undefined;
  return {
    id: fields.id,
    tenant: fields.tenant,
    url: fields.url as string,
    events: JSON.parse(fields.events ?? '[]') as WebhookEventType[],
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    createdAt: Number(fields.createdAt),
    disabled: fields.disabled === '1',
    ...(fields.disabledReason ? { disabledReason: fields.disabledReason } : {}),
    ...(fields.disabledAt ? { disabledAt: Number(fields.disabledAt) } : {}),
    secret: fields.secret,
    ...(fields.previousSecret ? { previousSecret: fields.previousSecret } : {}),
    ...(expires !== undefined ? { previousSecretExpiresAt: expires } : {}),
  };
}

export function toEndpointView(endpoint: WebhookEndpoint, now = Date.now()): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    ...(endpoint.description !== undefined ? { description: endpoint.description } : {}),
    createdAt: endpoint.createdAt,
    disabled: endpoint.disabled,
    ...(endpoint.disabledReason ? { disabledReason: endpoint.disabledReason } : {}),
    ...(endpoint.disabledAt ? { disabledAt: endpoint.disabledAt } : {}),
    ...(endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? { previousSecretExpiresAt: endpoint.previousSecretExpiresAt } : {}),
  };
}

/** The secrets that sign now: the current one, and the previous one during its grace period. */
export function signingSecrets(endpoint: WebhookEndpoint, now = Date.now()): string[] {
  const previous = endpoint.previousSecret && (endpoint.previousSecretExpiresAt ?? 0) > now ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}

/**
 * The endpoint registry in Redis: one hash per endpoint and a set of ids per tenant. Another
 * tenant's endpoint reads as missing. Secrets are kept in Redis in clear (they sign; a reader
 * of Redis could also read the queued payloads) and shown to the tenant only when created or rotated.
 */
export class WebhookRegistry {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates an endpoint, or answers 'limit' when the tenant already has `max`. */
  async create(tenant: string, input: WebhookEndpointRequest, max: number): Promise<{ endpoint: WebhookEndpoint } | 'limit'> {
    const endpoint: WebhookEndpoint = {
      id: `ep_${randomBytes(12).toString('hex')}`,
      tenant,
      url: input.url,
      events: input.events,
      ...(input.description !== undefined ? { description: input.description } : {}),
      createdAt: this.now(),
      disabled: false,
      secret: newSecret(),
    };
    const fields = {
      id: endpoint.id,
      tenant,
      url: endpoint.url,
      events: JSON.stringify(endpoint.events),
      createdAt: String(endpoint.createdAt),
      disabled: '0',
      secret: endpoint.secret,
      ...(input.description !== undefined ? { description: input.description } : {}),
    };
    const created = (await this.redis.eval(
      CREATE,
      2,
      webhookTenantKey(tenant),
      webhookEndpointKey(endpoint.id),
      WEBHOOK_ENDPOINTS_CHANGED_CHANNEL,
      String(max),
      endpoint.id,
      ...Object.entries(fields).flat(),
    )) as number;
    return created === 1 ? { endpoint } : 'limit';
  }

  /** The endpoint with its secrets (any tenant's: the worker's read). */
  async load(id: string): Promise<WebhookEndpoint | undefined> {
    return fromHash(await this.redis.hgetall(webhookEndpointKey(id)));
  }

  /** This tenant's endpoint, or undefined (unknown or another tenant's). */
  async get(tenant: string, id: string): Promise<WebhookEndpoint | undefined> {
    const endpoint = await this.load(id);
    return endpoint?.tenant === tenant ? endpoint : undefined;
  }

  /** Every endpoint of a tenant, oldest first. */
  async list(tenant: string): Promise<WebhookEndpoint[]> {
    const ids = await this.redis.smembers(webhookTenantKey(tenant));
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(webhookEndpointKey(id));
    const rows = (await pipeline.exec()) ?? [];
    return rows
      .map(([, fields]) => fromHash((fields ?? {}) as Record<string, string>))
      .filter((e): e is WebhookEndpoint => e !== undefined && e.tenant === tenant)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async delete(tenant: string, id: string): Promise<boolean> {
    if (!(await this.get(tenant, id))) return false;
    await this.redis
      .multi()
      .srem(webhookTenantKey(tenant), id)
      .del(webhookEndpointKey(id), webhookDeliveriesKey(id), webhookFailingSinceKey(id), webhookSemaphoreKey(id))
      .publish(WEBHOOK_ENDPOINTS_CHANGED_CHANNEL, webhookTenantKey(tenant))
      .exec();
    return true;
  }

  /** A new current secret; the old one keeps signing for `graceMs`. Answers the new secret. */
  async rotate(tenant: string, id: string, graceMs: number): Promise<{ endpoint: WebhookEndpoint; secret: string } | undefined> {
    const endpoint = await this.get(tenant, id);
    if (!endpoint) return undefined;
    const secret = newSecret();
    const expires = this.now() + graceMs;
    const ok = await this.update(endpoint, { secret, previousSecret: endpoint.secret, previousSecretExpiresAt: String(expires) });
    if (!ok) return undefined;
    return { endpoint: { ...endpoint, secret, previousSecret: endpoint.secret, previousSecretExpiresAt: expires }, secret };
  }

  /** Disables an endpoint (no more deliveries); answers false when it no longer exists or already was. */
  async disable(id: string, reason: string): Promise<boolean> {
    const endpoint = await this.load(id);
    if (!endpoint || endpoint.disabled) return false;
    return this.update(endpoint, { disabled: '1', disabledReason: reason, disabledAt: String(this.now()) });
  }

  async recordDelivery(id: string, record: DeliveryRecord): Promise<void> {
    const key = webhookDeliveriesKey(id);
    // Only for an endpoint that still exists: a delete racing a delivery leaves no orphan list.
    if (!(await this.redis.exists(webhookEndpointKey(id)))) return;
    await this.redis
      .multi()
      .lpush(key, JSON.stringify(record))
      .ltrim(key, 0, WEBHOOK_LIMITS.deliveriesKept - 1)
      .exec();
  }

  async deliveries(id: string, limit: number = WEBHOOK_LIMITS.deliveriesKept): Promise<DeliveryRecord[]> {
    const rows = await this.redis.lrange(webhookDeliveriesKey(id), 0, Math.max(0, limit - 1));
    return rows.map((row) => JSON.parse(row) as DeliveryRecord);
  }

  private async update(endpoint: Pick<WebhookEndpoint, 'id' | 'tenant'>, fields: Record<string, string>): Promise<boolean> {
    const changed = [WEBHOOK_ENDPOINTS_CHANGED_CHANNEL, webhookTenantKey(endpoint.tenant)];
    return ((await this.redis.eval(UPDATE, 1, webhookEndpointKey(endpoint.id), ...changed, ...Object.entries(fields).flat())) as number) === 1;
  }
}
