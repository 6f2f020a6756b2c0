import type { Channel, Priority } from './channels';
import { partitionTagText } from './partitions';

/**
 * Every Redis key and BullMQ queue name the platform uses, defined once.
 *
 * NEVER rename any of these without a migration: queued jobs and idempotency records live
 * under them. Keys are partitioned (docs/partitions.md): everything one Lua script touches
 * carries its partition's hash tag, so on Redis Cluster each script (several keys per call)
 * and each BullMQ queue stays in one slot. Partition 0's tag is `{notify}`, the tag every key
 * had before partitions: a single Redis with PARTITIONS=1 keeps its keys. Global keys (breakers,
 * process registry, admin sessions) have tags of their own and stay off the notifications' slots.
 *
 * The per-partition functions take the partition last, defaulting to 0 (the only partition of
 * PARTITIONS=1); code that serves several partitions always passes it.
 */
export const KEY_PREFIX = '{notify}';

/** The hash tag of partition `p` (`{notify}` for 0; see partitionTagText for the others). */
export function partitionTag(partition = 0): string {
  return partition === 0 ? KEY_PREFIX : `{${partitionTagText(partition)}}`;
}

/** BullMQ's prefix of partition `p`'s queues; queue keys become `<tag>:q:<queue>:...`. */
export function queuePrefix(partition = 0): string {
  return `${partitionTag(partition)}:q`;
}

/** BullMQ's prefix of partition 0 (the only one of PARTITIONS=1): `{notify}:q`. */
export const QUEUE_PREFIX = queuePrefix(0);

/** One queue per (channel, priority class) and partition: each is a bulkhead lane with its own workers. */
export function channelQueueName(channel: Channel, priority: Priority): string {
  return `${channel}-${priority}`;
}

/** The notification record: idempotency reservation, status and attempt history in one hash. */
export function notificationKey(notificationId: string, partition = 0): string {
  return `${partitionTag(partition)}:n:${notificationId}`;
}

/** A stored recipient profile, scoped by tenant. Ids are hashed: no PII in key names. */
export function recipientKey(tenantRecipientHash: string, partition = 0): string {
  return `${partitionTag(partition)}:r:${tenantRecipientHash}`;
}

/** Permanent-failure suppression of one (recipient, channel) pair. */
export function suppressionKey(tenantRecipientHash: string, channel: Channel, partition = 0): string {
  return `${partitionTag(partition)}:s:${tenantRecipientHash}:${channel}`;
}

/**
 * The prefix of the suppression index: `<tag>:si:<sha1 hex of the tenant>` is a sorted set of
 * the tenant's suppressions in this partition, member `<recipient hash>:<channel>`, score its
 * expiry (ms). Written with the suppression, in the same script or transaction (the scripts
 * build the key from the record's tenant with Lua's sha1hex); suppressionIndexKey is the same
 * name from TypeScript.
 */
export function suppressionIndexPrefix(partition = 0): string {
  return `${partitionTag(partition)}:si:`;
}

/** The hash tag of the breakers: one script reads every provider's state at once, so they share a slot. */
export const BREAKER_TAG = '{notify:breaker}';

/** The circuit-breaker state of one provider (named after its channel by default), shared by every process. */
export function breakerKey(breaker: string): string {
  return `${BREAKER_TAG}:b:${breaker}`;
}

/** BullMQ job id of step `step` (1-based) of a notification; never all digits, never a `:`. */
export function stepJobId(notificationId: string, step: number): string {
  return `n-${notificationId}-${step}`;
}

/**
 * The probe leases of one half-open breaker: a sorted set of lease id → expiry (ms,
 * Redis clock), so a probe whose worker never reports frees its slot when the lease expires.
 */
export function breakerProbesKey(breaker: string): string {
  return `${BREAKER_TAG}:bp:${breaker}`;
}

/**
 * A tenant's intake limits (rate bucket and daily count, one hash): on a slot of the tenant's
 * own, so tenants spread over a cluster's nodes and one tenant's limit is one key, one call.
 */
export function tenantLimitsKey(tenant: string): string {
  return `{notify:tenant:${tenant}}:limits`;
}

/** The hash tag of the process registry (a registration and the index are written in one transaction). */
export const PROCESS_TAG = '{notify:procs}';

/** One running process's registration (pid, roles, host), kept alive by its heartbeat TTL. */
export function processKey(processId: string): string {
  return `${PROCESS_TAG}:proc:${processId}`;
}

/** The ids of registered processes (a set; entries whose key expired are pruned on read). */
export function processIndexKey(): string {
  return `${PROCESS_TAG}:procs`;
}

/**
 * Every notification of one partition accepted and not yet terminal (score: when it last made
 * progress, ms): written by the intake script and the releaser, refreshed when a step begins,
 * left when the record ends. The intake sweeper re-adds the current step job of any entry idle
 * too long, so a record whose job was never added (the api died in between) or vanished with a
 * failed-over master is still delivered; intake's push-back counts its old entries.
 */
export function pendingIntakeKey(partition = 0): string {
  return `${partitionTag(partition)}:pending-intake`;
}

/**
 * The urgent notifications of one partition accepted (or released) whose first step no lane
 * worker has taken up yet (score: acceptance or release time, ms): what urgent push-back counts,
 * so a reminder backlog, however old, never refuses urgent work. Left when an urgent lane's
 * worker takes up the first step, or the record ends before that.
 */
export function pendingUrgentKey(partition = 0): string {
  return `${partitionTag(partition)}:pending-urgent`;
}

/** The hash tag of the admin console's sessions. */
export const ADMIN_TAG = '{notify:admin}';

/**
 * A signed-in operator's browser session of the admin console (its CSRF token, with a TTL).
 * Keyed by a hash of the session id: a reader of Redis cannot replay the cookie.
 */
export function adminSessionKey(sessionIdHash: string): string {
  return `${ADMIN_TAG}:admin-session:${sessionIdHash}`;
}

/**
 * The platform's own settings kept in Redis (`partitions`: the PARTITIONS every process must
 * agree on, written by the first process that starts).
 */
export function platformSettingsKey(): string {
  return '{notify:settings}:settings';
}

/**
 * Terminal notifications of one partition waiting for the history store (score: when they
 * became terminal, ms; a claim moves an entry's score to the end of its lease, so a crashed
 * archiver's batch comes back). Written by the terminal scripts when history is on; emptied by
 * the partition's archiver.
 */
export function archiveQueueKey(partition = 0): string {
  return `${partitionTag(partition)}:archive`;
}

/**
 * The compact idempotency entries of archived notifications: hash buckets
 * `<tag>:i:<day>:<bucket>` (see lua/includes/idempotency-entries.lua). This is the prefix;
 * the scripts append day and bucket.
 */
export function idempotencyBucketPrefix(partition = 0): string {
  return `${partitionTag(partition)}:i:`;
}

/** Per day: the bucket bits chosen for that day (`b:<day>`) and how many entries it holds (`n:<day>`). */
export function idempotencyMetaKey(partition = 0): string {
  return `${partitionTag(partition)}:im`;
}

/**
 * Scheduled notifications of one partition not yet due (score: sendAt, ms). Written by the
 * intake script instead of the pending-intake entry; the partition's releaser moves each due
 * one to its lane (release-due-3), so the due index costs one sorted-set entry per notification.
 * A cancel removes its entry in the same script that makes the record `canceled`.
 */
export function dueIndexKey(partition = 0): string {
  return `${partitionTag(partition)}:due`;
}

/**
 * The prefix of the event index: `<tag>:ev:<sha1 hex of tenant NUL event id>` is a set of the
 * ids of one (tenant, event id) in this partition (cancel by event). The scripts build the key
 * from the record's tenant and event id with this prefix (Lua's sha1hex), so no key text is
 * stored; eventIndexKey is the same name from TypeScript.
 */
export function eventIndexPrefix(partition = 0): string {
  return `${partitionTag(partition)}:ev:`;
}

/**
 * The prefix of the parked stubs: `<tag>:pk:<bucket>` hashes holding, per scheduled notification
 * parked in PostgreSQL, its id and 64 bits of its payload fingerprint (lua/includes/parked-stubs.lua).
 * The scripts append the bucket.
 */
export function parkedStubPrefix(partition = 0): string {
  return `${partitionTag(partition)}:pk:`;
}
