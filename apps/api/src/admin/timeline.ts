import type { NotificationView } from '@notify/core';
import { NOTIFICATION_EVENT_TYPES, notificationEventId, type DeliveryRecord } from '@notify/webhooks';

/** One line of a notification's timeline: when, what, and the facts beside it (never an address or content). */
export interface TimelineEntry {
  at: number;
  kind: 'accepted' | 'attempt' | 'wait' | 'skip' | 'receipt' | 'webhook' | 'terminal';
  title: string;
  facts: [label: string, value: string][];
}

const ms = (value: number | undefined) => (value === undefined ? 'n/a' : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`);
const defined = (facts: [string, string | number | undefined][]): [string, string][] =>
  facts.filter((f): f is [string, string | number] => f[1] !== undefined).map(([label, value]) => [label, String(value)]);

/** The ids the webhook publisher gives this notification's events (their ids derive from it): its deliveries are found by them. */
export function webhookEventIds(view: NotificationView): Set<string> {
  const ids = new Set<string>();
  for (const type of NOTIFICATION_EVENT_TYPES) {
    ids.add(notificationEventId(view.id, type));
    for (const attempt of view.attempts) ids.add(notificationEventId(view.id, type, attempt.step));
  }
  return ids;
}

/**
 * A notification's story in time order: accepted, then each attempt (with the wait before it),
 * skip, receipt, webhook delivery and its terminal status. Entries at the same instant keep
 * the order they were recorded in.
 */
export function buildTimeline(view: NotificationView, webhookDeliveries: readonly (DeliveryRecord & { endpointId: string })[] = []): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    {
      at: view.acceptedAt,
      kind: 'accepted',
      title: 'Accepted',
      facts: defined([
        ['priority', view.priority],
        ['plan', view.plan.join(' → ')],
      ]),
    },
  ];
  let previousEnd = view.acceptedAt;
  view.attempts.forEach((attempt, index) => {
    const waited = attempt.startedAt - previousEnd;
    if (waited > 0) entries.push({ at: previousEnd, kind: 'wait', title: `Waited ${ms(waited)}`, facts: [] });
    entries.push({
      at: attempt.startedAt,
      kind: 'attempt',
      title: `Attempt ${index + 1}: ${attempt.channel}, ${attempt.outcome ?? 'in flight'}`,
      facts: defined([
        ['channel', attempt.channel],
        ['provider', attempt.provider],
        ['kind', attempt.kind],
        ['outcome', attempt.outcome ?? 'in flight'],
        ['took', attempt.durationMs === undefined ? undefined : ms(attempt.durationMs)],
        ['error class', attempt.errorClass],
        ['counted against the budget', attempt.spent === undefined ? undefined : attempt.spent ? 'yes' : 'no'],
      ]),
    });
    previousEnd = attempt.finishedAt ?? attempt.startedAt;
    for (const receipt of attempt.receipts ?? []) {
      entries.push({
        at: receipt.at,
        kind: 'receipt',
        title: `Receipt: ${receipt.kind}`,
        facts: defined([
          ['channel', attempt.channel],
          ['bounce', receipt.bounceType],
          ['detail', receipt.detail],
        ]),
      });
    }
  });
  for (const skip of view.skips) entries.push({ at: skip.at, kind: 'skip', title: `Skipped ${skip.channel}`, facts: [['why', skip.reason]] });
  for (const delivery of webhookDeliveries) {
    entries.push({
      at: delivery.at,
      kind: 'webhook',
      title: `Webhook ${delivery.type}: ${delivery.result}`,
      facts: defined([
        ['endpoint', delivery.endpointId],
        ['try', delivery.attempt],
        ['status code', delivery.statusCode],
        ['took', ms(delivery.latencyMs)],
        ['error class', delivery.errorClass],
      ]),
    });
  }
  if (view.finishedAt !== undefined) {
    entries.push({
      at: view.finishedAt,
      kind: 'terminal',
      title: `Ended ${view.status}`,
      facts: defined([
        ['delivered on', view.deliveredChannel],
        ['why', view.failureReason],
        ['end to end', view.latencyMs === undefined ? undefined : ms(view.latencyMs)],
      ]),
    });
  }
  return entries
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => a.entry.at - b.entry.at || a.order - b.order)
    .map(({ entry }) => entry);
}
