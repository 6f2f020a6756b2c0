import { randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { newSecret, type DeliveryRecord, type WebhookEndpoint, type WebhookEndpointRequest, WEBHOOK_LIMITS } from './endpoint';
import type { WebhookEventType } from './events';
import { PLAIN_SECRETS, type SecretBox } from './secret-box';
import {
  WEBHOOK_ENDPOINTS_CHANGED_CHANNEL,
  webhookDeliveriesKey,
  webhookEndpointKey,
  webhookFailingSinceKey,
  webhookSemaphoreKey,
  webhookTenantKey,
} from './keys';

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

// KEYS: endpoint hash; ARGV: field/expected/replacement triples. Rewrites a stored secret only
// while it still holds what was read: a rotation in between wins.
const RESEAL = `
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
end
return 1`;

function fromHash(fields: Record<string, string>, box: SecretBox): WebhookEndpoint | undefined {
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
    secret: box.open(fields.secret, fields.id),
    ...(fields.previousSecret ? { previousSecret: box.open(fields.previousSecret, fields.id) } : {}),
    ...(expires !== undefined ? { previousSecretExpiresAt: expires } : {}),
  };
}

/**
 * The endpoint registry in Redis: one hash per endpoint and a set of ids per tenant. Another
 * tenant's endpoint reads as missing. Secrets are sealed at rest when WEBHOOK_SECRET_KEYS is set
 * (secret-box.ts) and shown to the tenant only when created or rotated.
 */
export class WebhookRegistry {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly now: () => number = Date.now,
    /** Seals the secrets written and opens the ones read (secret-box.ts); plain without keys. */
    private readonly box: SecretBox = PLAIN_SECRETS,
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
      secret: this.box.seal(endpoint.secret, endpoint.id),
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
    const fields = await this.redis.hgetall(webhookEndpointKey(id));
    const endpoint = fromHash(fields, this.box);
    if (endpoint) await this.resealStale(endpoint, fields);
    return endpoint;
  }

  /**
   * A secret stored plain (before encryption was configured) or under a key no longer first is
   * sealed again under the current key when read, so an old key can be dropped once every
   * endpoint has been read (the delivery worker reads each endpoint it delivers to).
   */
  private async resealStale(endpoint: WebhookEndpoint, fields: Record<string, string>): Promise<void> {
    const triples: string[] = [];
    for (const [field, secret] of [
      ['secret', endpoint.secret],
      ['previousSecret', endpoint.previousSecret],
    ] as const) {
      const stored = fields[field];
      if (stored !== undefined && secret !== undefined && this.box.isStale(stored)) triples.push(field, stored, this.box.seal(secret, endpoint.id));
    }
    if (triples.length > 0) await this.redis.eval(RESEAL, 1, webhookEndpointKey(endpoint.id), ...triples);
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
      .map(([, fields]) => fromHash((fields ?? {}) as Record<string, string>, this.box))
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
    const ok = await this.update(endpoint, {
      secret: this.box.seal(secret, endpoint.id),
      previousSecret: this.box.seal(endpoint.secret, endpoint.id),
      previousSecretExpiresAt: String(expires),
    });
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
