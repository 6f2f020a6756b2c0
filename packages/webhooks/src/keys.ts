import { createHash } from 'node:crypto';

/**
 * The webhooks' Redis keys and queue, under their own hash tag: a Redis Cluster slot apart from
 * `{notify}` (no script here touches a key of both). To move into packages/core/src/names.ts.
 * NEVER rename without a migration: endpoints and queued deliveries live under them.
 */
export const WEBHOOK_KEY_PREFIX = '{notify:webhooks}';

/** BullMQ's prefix for the webhooks queue: `{notify:webhooks}:q:webhooks:...`. */
export const WEBHOOK_QUEUE_PREFIX = `${WEBHOOK_KEY_PREFIX}:q`;
export const WEBHOOK_QUEUE_NAME = 'webhooks';

/**
 * Tenants' hashed names, remembered: the worker asks for a tenant's key on every delivery (the
 * step hook lists the tenant's endpoints), and a sha256 each time showed in its profile. Bounded:
 * emptied when it reaches TENANT_HASHES_KEPT tenants.
 */
const tenantHashes = new Map<string, string>();
const TENANT_HASHES_KEPT = 10_000;
function tenantHash(tenant: string): string {
  let hash = tenantHashes.get(tenant);
  if (hash === undefined) {
    hash = createHash('sha256').update(tenant).digest('hex').slice(0, 32);
    if (tenantHashes.size >= TENANT_HASHES_KEPT) tenantHashes.clear();
    tenantHashes.set(tenant, hash);
  }
  return hash;
}

/** The set of a tenant's endpoint ids (tenant hashed: key names carry no tenant name). */
export function webhookTenantKey(tenant: string): string {
  return `${WEBHOOK_KEY_PREFIX}:t:${tenantHash(tenant)}`;
}

/**
 * The pub/sub channel on which every write to a tenant's endpoints (create, rotate, disable,
 * delete) announces the tenant, by its set key (webhookTenantKey: no tenant name in clear), in
 * the same script or MULTI as the write. The step hook's cache of listening endpoints
 * (listening-cache.ts) forgets that tenant when it hears it.
 */
export const WEBHOOK_ENDPOINTS_CHANGED_CHANNEL = `${WEBHOOK_KEY_PREFIX}:endpoints-changed`;

/** One endpoint: a hash (tenant, url, events, secrets, disabled state). */
export function webhookEndpointKey(endpointId: string): string {
  return `${WEBHOOK_KEY_PREFIX}:ep:${endpointId}`;
}

/** An endpoint's recent delivery attempts, newest first (a capped list). */
export function webhookDeliveriesKey(endpointId: string): string {
  return `${WEBHOOK_KEY_PREFIX}:d:${endpointId}`;
}

/** The per-endpoint concurrency semaphore: a sorted set of lease id -> expiry (ms). */
export function webhookSemaphoreKey(endpointId: string): string {
  return `${WEBHOOK_KEY_PREFIX}:sem:${endpointId}`;
}

/** When an endpoint's current run of failures began (ms); deleted by any success. */
export function webhookFailingSinceKey(endpointId: string): string {
  return `${WEBHOOK_KEY_PREFIX}:fs:${endpointId}`;
}

/** The BullMQ job id of one event's delivery to one endpoint: no `:`, never all digits. */
export function webhookJobId(endpointId: string, eventId: string): string {
  return `w-${endpointId}-${eventId}`;
}
