import { sumSamples } from '@notify/platform-kit';
import type { BenchTarget } from './bench-target';

/** What the platform's own /metrics say, summed over its processes, at one instant. */
export interface Counts {
  t: number;
  accepted: number;
  /** Items refused with 503 BACKLOG_FULL. */
  refused: number;
  /** Of them, urgent items. */
  refusedUrgent: number;
  /** Ended in any way: the SLO's outcomes plus opted out, canceled and expired (counted apart from them). */
  terminal: number;
  delivered: number;
  /** Terminal notifications written to the history store. */
  archived: number;
  /** Terminal notifications waiting to be archived (a gauge every worker reads: the max of them). */
  historyBacklog: number;
  webhookDeliveries: number;
  /** Webhook calls that failed (retried by the webhook worker). */
  webhookFailures: number;
}

/** Every way a notification ends: the SLO's counter and the three kept out of its ratio. */
const ENDED_COUNTERS = [
  'notify_notifications_total',
  'notify_notifications_opted_out_total',
  'notify_notifications_canceled_total',
  'notify_notifications_expired_total',
] as const;

export async function readCounts(target: BenchTarget): Promise<Counts> {
  const texts = await Promise.all(target.metricsUrls.map(async (url) => (await fetch(url)).text()));
  const text = texts.join('\n');
  return {
    t: performance.now(),
    accepted: sumSamples(text, 'notify_intake_requests_total', { result: 'accepted' }),
    refused: sumSamples(text, 'notify_intake_requests_total', { result: 'backlog_full' }),
    refusedUrgent: sumSamples(text, 'notify_intake_requests_total', { result: 'backlog_full', priority: 'urgent' }),
    terminal: ENDED_COUNTERS.reduce((sum, name) => sum + sumSamples(text, name), 0),
    delivered: sumSamples(text, 'notify_notifications_total', { outcome: 'delivered' }),
    archived: sumSamples(text, 'notify_history_archived_total'),
    historyBacklog: Math.max(0, ...texts.map((t) => sumSamples(t, 'notify_history_backlog'))),
    webhookDeliveries: sumSamples(text, 'notify_webhook_deliveries_total', { outcome: 'success' }),
    webhookFailures: sumSamples(text, 'notify_webhook_deliveries_total', { outcome: 'failure' }),
  };
}
