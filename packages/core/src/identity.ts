import * as crypto from 'node:crypto';
import type { Channel } from './channels';
import { eventIndexPrefix } from './names';

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
  // Intake asks for the same pair twice in a row (inside notificationId, then for the record):
  // the last answer is kept so the second costs no hash.
  if (tenant === lastRecipient.tenant && recipientId === lastRecipient.recipientId) return lastRecipient.hash;
  const hash = sha256Hex(JSON.stringify(['recipient', tenant, recipientId])).slice(0, 32);
  lastRecipient = { tenant, recipientId, hash };
  return hash;
}

let lastRecipient = { tenant: '', recipientId: '', hash: '' };

/** The provider-facing idempotency key: the same for every call of one notification. */
export function providerIdempotencyKey(notificationIdValue: string): string {
  return `notify-${notificationIdValue}`;
}

/**
 * The event index set of (tenant, event id) in one partition: the ids cancel by event looks up.
 * sha1 as Lua's redis.sha1hex computes it from the record's fields (intake-3, compact-archived-2).
 */
export function eventIndexKey(tenant: string, eventId: string, partition = 0): string {
  return eventIndexPrefix(partition) + crypto.createHash('sha1').update(`${tenant}\0${eventId}`).digest('hex');
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

/**
 * JSON with object keys sorted (UTF-16 code unit order) and undefined members left out. The
 * output is what fingerprints already stored were computed from: it must never change (an
 * array's undefined element stays an empty slot, as `[...].join` wrote it). Written with plain
 * loops and concatenation: it runs on every accepted notification.
 */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out += ',';
      out += stableStringify(value[i]) ?? '';
    }
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    let out = '{';
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue;
      if (out.length > 1) out += ',';
      out += `${JSON.stringify(key)}:${stableStringify(member)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value);
}

/** Node >= 20.12 hashes in one call (no Hash object); engines allow 20.10, which falls back. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}
