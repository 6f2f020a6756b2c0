import { join } from 'node:path';
import type { Logger } from 'pino';
import {
  archiveQueueKey,
  notificationKey,
  partitionOfId,
  partitionOfRecipient,
  platformSettingsKey,
  recipientHash,
  suppressionKey,
  type Channel,
  type NotificationStatus,
  type ReceiptKind,
} from '@notify/core';
import type { ReceiptMetrics } from '@notify/metrics';
import type { RedisClient } from '@notify/runtime';
import { defineLuaCommands, type LuaCommand } from '../lua-commands';
import { recordAttempts, type RecordFields } from '../notification-record';
import { decodeReply, text } from '../scripts/script-reply';
import { RECEIPT_EVENT_TTL_SECONDS, notificationIdOfMessage, receiptEventKey, receiptIndexKey } from './keys';

/** apply-receipt-4.lua's return codes (its header lists the same). */
export const APPLY_RECEIPT_CODES = { applied: 0, duplicate: 2, unmatched: 3, missing: 4 } as const;
export const RECEIPT_SCRIPTS = ['apply-receipt-4'] as const;
const LUA_DIR = join(__dirname, '..', 'lua');

/** One provider event, whatever format it came in (docs/provider-events.md). */
export interface ProviderEvent {
  /** The configured provider name (`sms-http`, `email-ses`...): the index is per provider. */
  provider: string;
  providerMessageId: string;
  kind: ReceiptKind;
  /** Bounces only: a soft (transient) bounce is recorded and changes nothing else. Default hard. */
  bounceType?: 'hard' | 'soft';
  /** When the provider says it happened (ms); default now. */
  at?: number;
  /** Short provider text (`stat:DELIVRD err:000`, an SMTP diagnostic code); cut to 200 characters. */
  detail?: string;
  /** The provider's id of this event: the same id twice is one change. */
  eventId: string;
}

export type ApplyReceiptResult =
  | { status: 'applied'; notificationId: string; before: NotificationStatus; after: NotificationStatus; channel: Channel; suppressed: boolean }
  | { status: 'duplicate'; notificationId: string }
  | { status: 'unmatched' };

/** The tenant event a status change announces (the webhooks publisher's step-event sink fits). */
export interface ReceiptEventSink {
  publish(event: {
    type: 'notification.bounced' | 'notification.complained' | 'notification.delivered' | 'notification.failed';
    notificationId: string;
  }): Promise<void>;
}

export interface ReceiptServiceDeps {
  redis: RedisClient;
  logger: Logger;
  /** PARTITIONS; unset: the count recorded in Redis by the first process (platformSettingsKey), else 1. */
  partitions?: number;
  /** SUPPRESSION_TTL_SECONDS: a hard bounce or complaint suppresses (recipient, channel) this long; 0 turns it off. */
  suppressionTtlSeconds: number;
  /** History on: a record a receipt settles joins the archive queue. */
  archive?: boolean;
  metrics?: ReceiptMetrics;
  events?: ReceiptEventSink;
  now?: () => number;
}

const EVENT_OF: Partial<Record<NotificationStatus, 'notification.bounced' | 'notification.complained' | 'notification.delivered' | 'notification.failed'>> = {
  bounced: 'notification.bounced',
  complained: 'notification.complained',
  delivered: 'notification.delivered',
  failed: 'notification.failed',
};

/**
 * Applies provider events (the api's `POST /v1/providers/:provider/events` and the worker's
 * SMPP receipts): finds the notification by the receipt index, then one Lua script on its
 * partition records the receipt on the attempt and settles what it settles.
 */
export class ReceiptService {
  readonly #command: LuaCommand;
  #partitions: number | undefined;
  readonly #now: () => number;

  constructor(private readonly deps: ReceiptServiceDeps) {
    this.#command = defineLuaCommands(deps.redis, LUA_DIR, 'notify', RECEIPT_SCRIPTS)('apply-receipt-4');
    this.#partitions = deps.partitions;
    this.#now = deps.now ?? Date.now;
  }

  async apply(event: ProviderEvent): Promise<ApplyReceiptResult> {
    const result = await this.#apply(event);
    this.deps.metrics?.events.inc({ provider: event.provider, result: result.status });
    if (result.status !== 'applied') return result;
    this.deps.metrics?.receipts.inc({ kind: event.kind === 'bounced' && event.bounceType === 'soft' ? 'soft-bounced' : event.kind, channel: result.channel });
    const type = result.after !== result.before ? EVENT_OF[result.after] : undefined;
    if (type && this.deps.events) {
      try {
        await this.deps.events.publish({ type, notificationId: result.notificationId });
      } catch (error) {
        this.deps.logger.warn({ err: error, notificationId: result.notificationId, type }, 'webhook event not published');
      }
    }
    return result;
  }

  /** The manual lift (`DELETE /v1/recipients/:id/suppressions/:channel`): false when (recipient, channel) was not suppressed. */
  async liftSuppression(tenant: string, recipientId: string, channel: Channel): Promise<boolean> {
    const rh = recipientHash(tenant, recipientId);
    return (await this.deps.redis.del(suppressionKey(rh, channel, partitionOfRecipient(rh, await this.#partitionCount())))) === 1;
  }

  async #partitionCount(): Promise<number> {
    if (this.#partitions === undefined) {
      const recorded = Number(await this.deps.redis.hget(platformSettingsKey(), 'partitions'));
      if (Number.isInteger(recorded) && recorded >= 1) this.#partitions = recorded;
      else return 1; // nothing recorded yet: a single partition (asked again next time)
    }
    return this.#partitions;
  }

  async #apply(event: ProviderEvent): Promise<ApplyReceiptResult> {
    const id = notificationIdOfMessage(event.providerMessageId) ?? (await this.deps.redis.get(receiptIndexKey(event.provider, event.providerMessageId)));
    if (!id) return { status: 'unmatched' };
    const partition = partitionOfId(id, await this.#partitionCount());
    const fields = (await this.deps.redis.hgetall(notificationKey(id, partition))) as RecordFields;
    if (!fields.status) return { status: 'unmatched' }; // expired, or archived already
    const attempt = recordAttempts(fields).findLast((a) => a.providerMessageId === event.providerMessageId);
    if (!attempt) return { status: 'unmatched' };
    const now = this.#now();
    const reply = await this.#command(
      notificationKey(id, partition),
      suppressionKey(fields.rh ?? '', attempt.channel, partition),
      receiptEventKey(event.provider, event.eventId, partition),
      archiveQueueKey(partition),
      event.providerMessageId,
      event.kind,
      event.kind === 'bounced' ? (event.bounceType ?? 'hard') : '',
      Math.round(event.at ?? now),
      (event.detail ?? '').slice(0, 200),
      now,
      this.deps.suppressionTtlSeconds,
      RECEIPT_EVENT_TTL_SECONDS,
      this.deps.archive ? 1 : 0,
      id,
      attempt.step,
    );
    const { code, detail } = decodeReply('apply-receipt-4', APPLY_RECEIPT_CODES, reply);
    if (code === 'duplicate') return { status: 'duplicate', notificationId: id };
    if (code !== 'applied') return { status: 'unmatched' };
    return {
      status: 'applied',
      notificationId: id,
      after: text(detail[0]) as NotificationStatus,
      before: text(detail[1]) as NotificationStatus,
      channel: text(detail[2]) as Channel,
      suppressed: Number(detail[3]) === 1,
    };
  }
}
