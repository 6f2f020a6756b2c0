import { join } from 'node:path';
import {
  archiveQueueKey,
  notificationKey,
  partitionOfId,
  platformSettingsKey,
  suppressionIndexMember,
  suppressionIndexPrefix,
  suppressionKey,
  type Channel,
  type NotificationStatus,
  type NotificationView,
} from '@notify/core';
import type { HistoryRecord } from '@notify/history';
import type { ProviderIdentity } from '@notify/providers';
import { defineLuaCommands, type LuaCommand } from '../lua-commands';
import { recordAttempts, type RecordFields } from '../notification-record';
import { decodeReply, text } from '../scripts/script-reply';
import { SuppressionStore } from '../suppressions/suppression-store';
import { applyArchivedReceipt, type ArchivedReceiptResult } from './archived-receipt';
import { matchAttempt, unapplied } from './attempt-match';
import { RECEIPT_EVENT_TTL_SECONDS, notificationIdOfMessage, receiptEventKey, receiptIndexKey } from './keys';
import type { ApplyReceiptResult, ProviderEvent, ReceiptEventType, ReceiptServiceDeps } from './receipt-types';

/** apply-receipt-4.lua's return codes (its header lists the same). */
export const APPLY_RECEIPT_CODES = { applied: 0, duplicate: 2, unmatched: 3, missing: 4, mismatch: 5 } as const;
export const RECEIPT_SCRIPTS = ['apply-receipt-4'] as const;
const LUA_DIR = join(__dirname, '..', 'lua');

const EVENT_OF: Partial<Record<NotificationStatus, ReceiptEventType>> = {
  bounced: 'notification.bounced',
  complained: 'notification.complained',
  delivered: 'notification.delivered',
  failed: 'notification.failed',
};

/** The status object as the api shows it: no tenant, no address hashes. */
function publicView({ tenant: _tenant, addressHashes: _hashes, ...view }: HistoryRecord): NotificationView {
  return view;
}

/**
 * Applies provider events (the api's `POST /v1/providers/:provider/events` and the worker's
 * SMPP receipts): finds the notification by the receipt index (or by the message id itself, for
 * a provider that echoes idempotency keys), then one Lua script on its partition records the
 * receipt on the attempt that provider made and settles what it settles. A notification
 * archived already is found in the history and its row updated there.
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
    const { result, mismatch, archived } = await this.#apply(event);
    // A mismatch is counted as refused whatever it answered: forged events show on the dashboard.
    this.deps.metrics?.events.inc({ provider: event.provider, result: mismatch ? 'refused' : result.status });
    if (result.status !== 'applied') return result;
    this.deps.metrics?.receipts.inc({ kind: event.kind === 'bounced' && event.bounceType === 'soft' ? 'soft-bounced' : event.kind, channel: result.channel });
    const type = result.after !== result.before ? EVENT_OF[result.after] : undefined;
    if (type && this.deps.events) {
      try {
        await this.deps.events.publish({
          type,
          notificationId: result.notificationId,
          ...(archived ? { archived: { tenant: archived.tenant, view: publicView(archived) } } : {}),
        });
      } catch (error) {
        this.deps.logger.warn({ err: error, notificationId: result.notificationId, type }, 'webhook event not published');
      }
    }
    return result;
  }

  /** The manual lift (`DELETE /v1/recipients/:id/suppressions/:channel`): false when (recipient, channel) was not suppressed. */
  async liftSuppression(tenant: string, recipientId: string, channel: Channel): Promise<boolean> {
    return new SuppressionStore(this.deps.redis, await this.#partitionCount()).lift(tenant, recipientId, channel);
  }

  async #partitionCount(): Promise<number> {
    if (this.#partitions === undefined) {
      const recorded = Number(await this.deps.redis.hget(platformSettingsKey(), 'partitions'));
      if (Number.isInteger(recorded) && recorded >= 1) this.#partitions = recorded;
      else return 1; // nothing recorded yet: a single partition (asked again next time)
    }
    return this.#partitions;
  }

  /** The notification the event names: by the message id itself only for a provider that echoes idempotency keys, else by the provider's own index. */
  async #notificationOf(event: ProviderEvent, provider: ProviderIdentity): Promise<string | null | undefined> {
    const echoed = provider.echoesIdempotencyKey ? notificationIdOfMessage(event.providerMessageId) : undefined;
    return echoed ?? (await this.deps.redis.get(receiptIndexKey(event.provider, event.providerMessageId)));
  }

  async #apply(event: ProviderEvent): Promise<ArchivedReceiptResult & { archived?: ArchivedReceiptResult['record'] }> {
    const unmatched = { result: { status: 'unmatched' as const }, mismatch: false };
    const provider = this.deps.providers.get(event.provider);
    if (!provider) return unmatched;
    const id = await this.#notificationOf(event, provider);
    if (!id) return unmatched;
    const partitions = await this.#partitionCount();
    const partition = partitionOfId(id, partitions);
    const fields = (await this.deps.redis.hgetall(notificationKey(id, partition))) as RecordFields;
    const now = this.#now();
    if (!fields.status) {
      // No record in Redis: expired, or archived to the history already.
      if (!this.deps.history) return unmatched;
      const deps = { redis: this.deps.redis, history: this.deps.history, partitions, suppressionTtlSeconds: this.deps.suppressionTtlSeconds, now };
      const archived = await applyArchivedReceipt(deps, id, event, provider);
      return archived.record ? { ...archived, archived: archived.record } : archived;
    }
    const match = matchAttempt(recordAttempts(fields), event.providerMessageId, provider);
    if (!('attempt' in match)) return { result: unapplied(match), mismatch: match.mismatch };
    const reply = await this.#command(
      notificationKey(id, partition),
      suppressionKey(fields.rh ?? '', match.attempt.channel, partition),
      receiptEventKey(event.provider, id, event.eventId, partition),
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
      match.attempt.step,
      provider.name,
      provider.channel,
      suppressionIndexPrefix(partition),
      suppressionIndexMember(fields.rh ?? '', match.attempt.channel),
    );
    const { code, detail } = decodeReply('apply-receipt-4', APPLY_RECEIPT_CODES, reply);
    if (code === 'duplicate') return { result: { status: 'duplicate', notificationId: id }, mismatch: false };
    // The attempt changed hands between the read and the script: the script's check is the one that counts.
    if (code === 'mismatch') return { result: { status: 'refused', reason: 'provider mismatch' }, mismatch: true };
    if (code !== 'applied') return unmatched;
    return {
      result: {
        status: 'applied',
        notificationId: id,
        after: text(detail[0]) as NotificationStatus,
        before: text(detail[1]) as NotificationStatus,
        channel: text(detail[2]) as Channel,
        suppressed: Number(detail[3]) === 1,
      },
      mismatch: false,
    };
  }
}
