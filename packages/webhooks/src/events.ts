import { createHash, randomBytes } from 'node:crypto';
import type { NotificationView } from '@notify/core';

/** The notification events a tenant can subscribe to (`attempt.failed` only when listed: opt-in). */
export const NOTIFICATION_EVENT_TYPES = [
  'notification.delivered',
  'notification.failed',
  'notification.unconfirmed',
  'notification.bounced',
  'notification.complained',
  'notification.canceled',
  'notification.expired',
  'notification.opted_out',
  'attempt.failed',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

/** Every event type an endpoint may list: the notification events and the endpoint's own. */
export const WEBHOOK_EVENT_TYPES = [...NOTIFICATION_EVENT_TYPES, 'endpoint.disabled', 'recipient.opted_out', 'recipient.opted_in'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `endpoint.disabled`'s data: which endpoint, why and when. */
export interface EndpointDisabledData {
  endpointId: string;
  reason: string;
  disabledAt: number;
}

/**
 * `recipient.opted_out` / `recipient.opted_in`'s data: one switch of a recipient's preferences
 * (docs/preferences.md). `category` `*`: every category (the channel's global switch). A one-click
 * unsubscribe knows the recipient only by `recipientHash` (its link holds no id).
 */
export interface RecipientPreferenceData {
  recipientId?: string;
  recipientHash: string;
  category: string;
  channel: string;
  source: 'api' | 'one-click' | 'sms-stop';
  changedAt: number;
}

/**
 * What a receiver gets (the body, JSON): the Standard Webhooks payload shape plus the id (also
 * in the `webhook-id` header). `data` of a notification event is the notification's status
 * object exactly as `GET /v1/notifications/:id` answers it: no address, no content.
 */
export type WebhookEvent =
  | { id: string; type: NotificationEventType; timestamp: string; data: NotificationView }
  | { id: string; type: 'endpoint.disabled'; timestamp: string; data: EndpointDisabledData }
  | { id: string; type: 'recipient.opted_out' | 'recipient.opted_in'; timestamp: string; data: RecipientPreferenceData };

/** The event of one preference switch; a random id (each change is its own event). */
export function recipientPreferenceEvent(data: Omit<RecipientPreferenceData, 'changedAt'> & { optedOut: boolean }, now = Date.now()): WebhookEvent {
  const { optedOut, ...rest } = data;
  return {
    id: randomEventId(),
    type: optedOut ? 'recipient.opted_out' : 'recipient.opted_in',
    timestamp: new Date(now).toISOString(),
    data: { ...rest, changedAt: now },
  };
}

/**
 * A notification event's id: derived from (notification, type, step), so the same transition
 * published twice (a re-run) carries the same id and the receiver's de-duplication holds.
 */
export function notificationEventId(notificationId: string, type: NotificationEventType, step?: number): string {
  const digest = createHash('sha256')
    .update(`${notificationId}|${type}|${step ?? ''}`)
    .digest('base64url')
    .slice(0, 27);
  return `evt_${digest}`;
}

export function randomEventId(): string {
  return `evt_${randomBytes(20).toString('base64url')}`;
}

export function notificationEvent(type: NotificationEventType, view: NotificationView, now = Date.now(), step?: number): WebhookEvent {
  return { id: notificationEventId(view.id, type, step), type, timestamp: new Date(now).toISOString(), data: view };
}
