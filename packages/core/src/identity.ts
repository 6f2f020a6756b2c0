import { createHash } from 'node:crypto';
import type { Channel } from './channels';

/**
 * The notification id, the idempotency key: 32 hex characters. The first 28 are
 * sha256(tenant, eventId, recipientId); the last 4 are the first 4 of the recipient hash
 * `recipientHash(tenant, recipientId)`, so the id names its partition (docs/partitions.md:
 * partition = those 16 bits modulo PARTITIONS) and a lookup by id alone finds its keys. The tail
 * is at the end, not the front: the compact idempotency buckets are chosen from an id's first
 * bits, which must stay uniform within a partition. The channel is deliberately not part of
 * the id: the same event reaching one recipient over two channels is the error we prevent.
 * JSON array encoding keeps the parts unambiguous ("a|b","c" vs "a","b|c"). 112 bits of the
 * event hash per recipient are plenty and keep Redis keys and job ids short.
 */
export function notificationId(tenant: string, eventId: string, recipientId: string): string {
  return sha256Hex(JSON.stringify([tenant, eventId, recipientId])).slice(0, 28) + recipientHash(tenant, recipientId).slice(0, 4);
}

/** The key stored recipients live under: tenant-scoped and free of PII. */
export function recipientHash(tenant: string, recipientId: string): string {
  return sha256Hex(JSON.stringify(['recipient', tenant, recipientId])).slice(0, 32);
}

/** The provider-facing idempotency key: the same for every call of one notification. */
export function providerIdempotencyKey(notificationIdValue: string): string {
  return `notify-${notificationIdValue}`;
}

/**
 * What a terminal record keeps of an address: sha256 of the address as sent (lower-cased for
 * e-mail, whose domain and usual practice are case-blind), so support can match a record to
 * an address it is given without the record holding personal data.
 */
export function addressHash(channel: Channel, address: string): string {
  return sha256Hex(channel === 'email' ? address.toLowerCase() : address);
}

/**
 * A fingerprint of a request's payload with object keys sorted, so a client re-sending the
 * same JSON with another key order is still "the same request" (IETF Idempotency-Key draft:
 * same key + different payload = 422).
 */
export function payloadFingerprint(payload: unknown): string {
  return sha256Hex(stableStringify(payload));
}

export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
