import type { Logger } from 'pino';
import type { PipelineMetrics } from '@notify/metrics';
import type { WriteCoalescer } from '../write-coalescer';
import type { NotificationEnded, StepEvents } from './step-events';
import type { StepEventType } from './step-types';

/** The terminal counters (a replayed end was counted by the run that wrote it: not subscribed to replays). */
export function subscribeMetrics(events: StepEvents, metrics: PipelineMetrics): void {
  events.ended.subscribe((e) => {
    // Neither is a delivery outcome: the delivery ratio counts only what was tried to the end.
    if (e.status === 'expired' || e.status === 'canceled') {
      metrics[e.status].inc({ priority: e.priority });
      return;
    }
    // The recipient's choice: no delivery outcome either (kept out of the delivery ratio).
    if (e.status === 'opted-out') {
      metrics.optedOut.inc({ priority: e.priority });
      return;
    }
    metrics.notifications.inc({ priority: e.priority, outcome: e.status });
    if (e.status === 'delivered' && e.acceptedAt !== undefined)
      metrics.deliveryLatency.observe({ priority: e.priority }, Math.max(0, e.endedAt - e.acceptedAt) / 1000);
    metrics.cascadeDepth.observe({ outcome: e.status }, e.calls);
  });
}

/** Tenant webhooks (packages/webhooks): what the publisher is told. */
export interface StepEventPublisher {
  publish(event: { type: StepEventType; notificationId: string; step?: number; tenant?: string }): Promise<void>;
}

/**
 * Publishing is best effort beside the delivery: an error is logged, never thrown into the step.
 * A replayed end is published again: the event's id comes from (notification, type, step), so
 * a receiver sees one event however many times it is published.
 */
export function subscribeWebhooks(events: StepEvents, publisher: StepEventPublisher, coalesce: WriteCoalescer, logger: Logger): void {
  const publish = async (type: StepEventType, notificationId: string, step: number, tenant: string | undefined) => {
    coalesce();
    try {
      await publisher.publish({ type, notificationId, step, ...(tenant ? { tenant } : {}) });
    } catch (error) {
      logger.warn({ err: error, notificationId, type }, 'webhook event not published');
    }
  };
  events.ended.subscribe((e) => publish(endEventType(e.status), e.notificationId, e.step, e.tenant), { replays: true });
  events.attemptFailed.subscribe((e) => publish('attempt.failed', e.notificationId, e.step, e.tenant));
}

/** The webhook event of an end: `notification.<status>`, dashes as underscores (`notification.opted_out`). */
function endEventType(status: NotificationEnded['status']): StepEventType {
  return `notification.${status === 'opted-out' ? 'opted_out' : status}`;
}
