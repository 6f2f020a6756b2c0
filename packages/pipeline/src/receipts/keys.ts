import { createHash } from 'node:crypto';
import { partitionTag } from '@notify/core';

/**
 * The receipt index's prefix, with no hash tag: each index key is read and written alone (SET,
 * GET), so on Redis Cluster the keys spread over every slot instead of crowding one master. The
 * inbound side finds a provider message's notification without knowing its partition.
 */
export const RECEIPT_INDEX_PREFIX = 'notify:receipts';

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);

/** provider message → notification id (a string with a TTL, RECEIPT_INDEX_TTL_SECONDS). The message id is hashed: no provider ids in key names. */
export function receiptIndexKey(provider: string, providerMessageId: string): string {
  return `${RECEIPT_INDEX_PREFIX}:pm:${provider}:${digest(providerMessageId)}`;
}

/**
 * The event-id key of one provider event for one notification, on its partition (SET NX by
 * apply-receipt-4, or by the archived path): per provider AND notification, so one provider's
 * event id never shadows another's, nor the same id naming two messages.
 */
export function receiptEventKey(provider: string, notificationId: string, eventId: string, partition = 0): string {
  return `${partitionTag(partition)}:rev:${digest(`${provider}\n${notificationId}\n${eventId}`)}`;
}

/** RECEIPT_INDEX_TTL_SECONDS' default: 30 days (bounces and complaints come late; receipts within days). */
export const DEFAULT_RECEIPT_INDEX_TTL_SECONDS = 30 * 86_400;

/** How long an applied event id is remembered (a provider's retries come within days). */
export const RECEIPT_EVENT_TTL_SECONDS = 7 * 86_400;

/**
 * The notification a provider message id names by itself: a provider that answers with the
 * idempotency key it was given (the simulators) needs no index entry. Only for the events of a
 * provider that declares it does (ProviderCapabilities.echoesIdempotencyKey).
 */
export function notificationIdOfMessage(providerMessageId: string): string | undefined {
  return /^notify-([0-9a-f]{32})$/.exec(providerMessageId)?.[1];
}
