import { partitionOfId } from '@notify/core';
import type { HistoryRecord, HistoryStore } from '@notify/history';
import type { ProviderIdentity } from '@notify/providers';
import type { RedisClient } from '@notify/runtime';
import { SuppressionStore } from '../suppressions/suppression-store';
import { applyToArchived } from './archived-receipt-rules';
import { matchAttempt, unapplied } from './attempt-match';
import { RECEIPT_EVENT_TTL_SECONDS, receiptEventKey } from './keys';
import type { ApplyReceiptResult, ProviderEvent } from './receipt-types';

export interface ArchivedReceiptDeps {
  redis: RedisClient;
  history: Pick<HistoryStore, 'update'>;
  partitions: number;
  suppressionTtlSeconds: number;
  now: number;
}

/** An archived receipt's answer, and for a change the stored record (its tenant and view, for the webhook event). */
export type ArchivedReceiptResult = { result: ApplyReceiptResult; mismatch: boolean; record?: HistoryRecord };

/**
 * An event for a notification the archiver moved to PostgreSQL already (receipts and bounces
 * come minutes to hours after the call): the same rules as apply-receipt-4.lua, applied to the
 * history row under its row lock. The event id is claimed with the same Redis key as the live
 * path (so an event applied before archival is a duplicate after it) and given back when the
 * row's write fails, so the provider's retry is applied; the suppression is set before the commit
 * (a repeat of it is harmless, a missing one is not).
 */
export async function applyArchivedReceipt(
  deps: ArchivedReceiptDeps,
  id: string,
  event: ProviderEvent,
  provider: ProviderIdentity,
): Promise<ArchivedReceiptResult> {
  const partition = partitionOfId(id, deps.partitions);
  const eventKey = receiptEventKey(event.provider, id, event.eventId, partition);
  let claimed = false;
  try {
    const outcome = await deps.history.update<ArchivedReceiptResult>(id, async (record) => {
      const match = matchAttempt(record.attempts, event.providerMessageId, provider);
      if (!('attempt' in match)) return { result: { result: unapplied(match), mismatch: match.mismatch } };
      if ((await deps.redis.set(eventKey, '1', 'EX', RECEIPT_EVENT_TTL_SECONDS, 'NX')) === null) {
        return { result: { result: { status: 'duplicate', notificationId: id }, mismatch: false } };
      }
      claimed = true;
      const change = applyToArchived(record, match.attempt, event, deps.now);
      const suppressed = change.hard && deps.suppressionTtlSeconds > 0;
      if (suppressed) {
        const reason = event.kind === 'complained' ? 'complaint' : 'bounce';
        await new SuppressionStore(deps.redis, deps.partitions).add(
          record.tenant,
          record.recipientId,
          match.attempt.channel,
          reason,
          deps.suppressionTtlSeconds,
          deps.now,
        );
      }
      return {
        record: change.record,
        result: {
          result: { status: 'applied', notificationId: id, before: change.before, after: change.after, channel: match.attempt.channel, suppressed },
          mismatch: false,
          record: change.record,
        },
      };
    });
    return outcome ?? { result: { status: 'unmatched' }, mismatch: false };
  } catch (error) {
    if (claimed) await deps.redis.del(eventKey).catch(() => undefined);
    throw error;
  }
}
