import type { Logger } from 'pino';
import type { Channel, NotificationStatus, NotificationView, ReceiptKind } from '@notify/core';
import type { HistoryStore } from '@notify/history';
import type { ReceiptMetrics } from '@notify/metrics';
import type { ProviderIdentity } from '@notify/providers';
import type { RedisClient } from '@notify/runtime';

/** One provider event, whatever format it came in (docs/provider-events.md). */
export interface ProviderEvent {
  /** The configured provider name (`sms-http`, `email-ses`...) the event authenticated as: the index is per provider. */
  provider: string;
  providerMessageId: string;
  kind: ReceiptKind;
  /** Bounces only: a soft (transient) bounce is recorded and changes nothing else. Default hard. */
  bounceType?: 'hard' | 'soft';
  /** When the provider says it happened (ms); default now. */
  at?: number;
  /** Short provider text (`stat:DELIVRD err:000`, an SMTP diagnostic code); cut to 200 characters. */
  detail?: string;
  /** The provider's id of this event: the same id twice for one notification is one change. */
  eventId: string;
}

/**
 * What became of one event. `refused` is answered only to a provider that made an attempt of
 * that notification itself; for any other notification a mismatch reads as `unmatched`, so an
 * event never tells whether someone else's notification exists.
 */
export type ApplyReceiptResult =
  | { status: 'applied'; notificationId: string; before: NotificationStatus; after: NotificationStatus; channel: Channel; suppressed: boolean }
  | { status: 'duplicate'; notificationId: string }
  | { status: 'refused'; reason: 'provider mismatch' }
  | { status: 'unmatched' };

export type ReceiptEventType = 'notification.bounced' | 'notification.complained' | 'notification.delivered' | 'notification.failed';

/** The tenant event a status change announces (the webhooks publisher's step-event sink fits). */
export interface ReceiptEventSink {
  publish(event: {
    type: ReceiptEventType;
    notificationId: string;
    /** Set for an archived notification (no Redis record to read it from): its tenant and status view as now stored. */
    archived?: { tenant: string; view: NotificationView };
  }): Promise<void>;
}

export interface ReceiptServiceDeps {
  redis: RedisClient;
  logger: Logger;
  /** Every provider events may come from, by name: its channel and whether its message ids are idempotency keys. */
  providers: ReadonlyMap<string, ProviderIdentity>;
  /** PARTITIONS; unset: the count recorded in Redis by the first process (platformSettingsKey), else 1. */
  partitions?: number;
  /** PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS: a hard bounce or complaint suppresses (recipient, channel) this long; 0 turns it off. */
  suppressionTtlSeconds: number;
  /** History on: a record a receipt settles joins the archive queue. */
  archive?: boolean;
  /** The history store: an event for a notification archived already updates its row there. */
  history?: Pick<HistoryStore, 'update'>;
  metrics?: ReceiptMetrics;
  events?: ReceiptEventSink;
  now?: () => number;
}
