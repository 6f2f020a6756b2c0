import type { Channel, Priority } from './channels';

/**
 * Every Redis key and BullMQ queue name the platform uses, defined once.
 *
 * NEVER rename any of these without a migration: queued jobs and idempotency records live
 * under them. The `{notify}` hash tag puts every key in one Redis Cluster slot, which the
 * Lua scripts (several keys per call) and BullMQ both need.
 */
export const KEY_PREFIX = '{notify}';

/** BullMQ's own prefix; queue keys become `{notify}:q:<queue>:...`. */
export const QUEUE_PREFIX = `${KEY_PREFIX}:q`;

/** One queue per (channel, priority class): each is a bulkhead lane with its own workers. */
export function channelQueueName(channel: Channel, priority: Priority): string {
  return `${channel}-${priority}`;
}

/** The notification record: idempotency reservation, status and attempt history in one hash. */
export function notificationKey(notificationId: string): string {
  return `${KEY_PREFIX}:n:${notificationId}`;
}

/** A stored recipient profile, scoped by tenant. Ids are hashed: no PII in key names. */
export function recipientKey(tenantRecipientHash: string): string {
  return `${KEY_PREFIX}:r:${tenantRecipientHash}`;
}

/** Permanent-failure suppression of one (recipient, channel) pair. */
export function suppressionKey(tenantRecipientHash: string, channel: Channel): string {
  return `${KEY_PREFIX}:s:${tenantRecipientHash}:${channel}`;
}

/** The circuit-breaker state of one provider (named after its channel by default), shared by every process. */
export function breakerKey(breaker: string): string {
  return `${KEY_PREFIX}:b:${breaker}`;
}

/** BullMQ job id of step `step` (1-based) of a notification; never all digits, never a `:`. */
export function stepJobId(notificationId: string, step: number): string {
  return `n-${notificationId}-${step}`;
}

/**
 * The probe leases of one channel's half-open breaker: a sorted set of lease id → expiry (ms,
 * Redis clock), so a probe whose worker never reports frees its slot when the lease expires.
 */
export function breakerProbesKey(breaker: string): string {
  return `${KEY_PREFIX}:bp:${breaker}`;
}

/** One running process's registration (pid, roles, host), kept alive by its heartbeat TTL. */
export function processKey(processId: string): string {
  return `${KEY_PREFIX}:proc:${processId}`;
}

/** The ids of registered processes (a set; entries whose key expired are pruned on read). */
export function processIndexKey(): string {
  return `${KEY_PREFIX}:procs`;
}

/**
 * Notifications accepted but not yet started (score: acceptance time, ms). Written by the intake
 * script, cleared when step 1 begins; the intake sweeper re-adds the first job of any entry
 * older than a minute, so a record whose job was never added (the api died in between) is
 * still delivered.
 */
export function pendingIntakeKey(): string {
  return `${KEY_PREFIX}:pending-intake`;
}

/**
 * A signed-in operator's browser session of the admin console (its CSRF token, with a TTL).
 * Keyed by a hash of the session id: a reader of Redis cannot replay the cookie.
 */
export function adminSessionKey(sessionIdHash: string): string {
  return `${KEY_PREFIX}:admin-session:${sessionIdHash}`;
}

/**
 * Terminal notifications waiting for the history store (score: when they became terminal, ms;
 * a claim moves an entry's score to the end of its lease, so a crashed archiver's batch comes
 * back). Written by the terminal scripts when history is on; emptied by the archiver.
 */
export function archiveQueueKey(): string {
  return `${KEY_PREFIX}:archive`;
}

/**
 * The compact idempotency entries of archived notifications: hash buckets
 * `{notify}:i:<day>:<bucket>` (see lua/includes/idempotency-entries.lua). This is the prefix;
 * the scripts append day and bucket.
 */
export function idempotencyBucketPrefix(): string {
  return `${KEY_PREFIX}:i:`;
}

/** Per day: the bucket bits chosen for that day (`b:<day>`) and how many entries it holds (`n:<day>`). */
export function idempotencyMetaKey(): string {
  return `${KEY_PREFIX}:im`;
}
