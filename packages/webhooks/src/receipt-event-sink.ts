import type { ReceiptEventSink } from '@notify/pipeline';
import { notificationEvent } from './events';
import type { WebhookPublisher } from './publisher';

/**
 * The tenant events provider events announce: through the step hook for a notification still in
 * Redis (it reads the record), and straight from the stored view for an archived one (no record
 * left to read).
 */
export function receiptEventSink(publisher: WebhookPublisher, now: () => number = Date.now): ReceiptEventSink {
  const live = publisher.stepEvents();
  return {
    publish: async (event) => {
      if (!event.archived) return live.publish(event);
      await publisher.publishNotificationEvent(event.archived.tenant, notificationEvent(event.type, event.archived.view, now()));
    },
  };
}
