import { notificationIdOfMessage, receiptIndexKey } from '../receipts/keys';
import type { StepContext, StepServices } from './step-context';

/** Best effort: the receipt index (provider message -> notification) for provider events; a failure is counted, never thrown. */
export async function indexReceipt(ctx: StepContext, s: StepServices, provider: string, providerMessageId: string): Promise<void> {
  const { data } = ctx;
  // A provider that echoes the idempotency key names the notification by it (the simulators do):
  // provider events resolve such ids without the index, so no write on the hot path. Any other
  // provider's events are looked up by its own message id only, so theirs are always indexed.
  if (ctx.call?.adapter.capabilities.echoesIdempotencyKey === true && notificationIdOfMessage(providerMessageId) === data.id) return;
  try {
    await s.redis.set(receiptIndexKey(provider, providerMessageId), data.id, 'EX', s.receiptIndexTtlSeconds);
  } catch (error) {
    s.metrics.receiptIndexFailures.inc({ channel: data.channel });
    s.logger.warn({ err: error, notificationId: data.id }, 'receipt index not written');
  }
}
