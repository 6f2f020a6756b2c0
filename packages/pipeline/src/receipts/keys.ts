import { createHash } from 'node:crypto';
import { partitionTag } from '@notify/core';

/**
 * The hash tag of the receipt index: the inbound side finds a provider message's notification
 * without knowing its partition, so the index has a slot of its own (one key a message, written
 * by the step processor after the attempt, read by the receipts service).
 */
export const RECEIPTS_TAG = '{notify:receipts}';

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);

/** provider message → notification id (a string with a TTL, RECEIPT_INDEX_TTL_SECONDS). The message id is hashed: no provider ids in key names. */
export function receiptIndexKey(provider: string, providerMessageId: string): string {
  return `${RECEIPTS_TAG}:pm:${provider}:${digest(providerMessageId)}`;
}

/** The event-id key of one provider event, on the notification's partition (written by apply-receipt-4 with SET NX). */
export function receiptEventKey(provider: string, eventId: string, partition = 0): string {
  return `${partitionTag(partition)}:rev:${digest(`${provider}\n${eventId}`)}`;
}

/** RECEIPT_INDEX_TTL_SECONDS' default: 30 days (bounces and complaints come late; receipts within days). */
export const DEFAULT_RECEIPT_INDEX_TTL_SECONDS = 30 * 86_400;

/** How long an applied event id is remembered (a provider's retries come within days). */
export const RECEIPT_EVENT_TTL_SECONDS = 7 * 86_400;
