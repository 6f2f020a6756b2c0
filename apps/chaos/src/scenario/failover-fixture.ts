import type { AttemptOutcome, Channel, NotificationView } from '@notify/core';
import type { OutageWindow } from './outcomes';

/** A notification record as the scenario reads it back: urgent, delivered, push first. */
export const view = (over: Partial<NotificationView>): NotificationView => ({
  id: 'x',
  eventId: 'e',
  recipientId: 'r',
  priority: 'urgent',
  status: 'delivered',
  plan: ['push', 'sms', 'email'],
  acceptedAt: 0,
  attempts: [],
  skips: [],
  ...over,
});

/** A send attempt through a named provider. */
export const send = (step: number, channel: Channel, provider: string, startedAt: number, outcome: AttemptOutcome): NotificationView['attempts'][number] => ({
  step,
  channel,
  provider,
  kind: 'send',
  startedAt,
  outcome,
});

/**
 * Two push providers, push-a killed from 100 to 200 ms, and the records of five notifications
 * around it (outcomes.test.ts checks the failover figures they come to, report.test.ts prints them).
 */
export const TWO_PUSH_OUTAGE: OutageWindow = { channel: 'push', provider: 'push-a', downAt: 100, upAt: 200 };
export const TWO_PUSH_PROVIDERS = ['push-a', 'push-b'];
export const preferredChannel = (v: NotificationView): Channel => v.plan[0]!;

export const TWO_PUSH_VIEWS: NotificationView[] = [
  view({ acceptedAt: 50, attempts: [send(1, 'push', 'push-a', 55, 'delivered')] }),
  view({
    acceptedAt: 110,
    attempts: [send(1, 'push', 'push-a', 111, 'transient'), send(2, 'push', 'push-b', 115, 'delivered')],
  }),
  view({ acceptedAt: 120, attempts: [send(1, 'push', 'push-b', 121, 'delivered')] }),
  view({
    acceptedAt: 130,
    attempts: [send(1, 'push', 'push-a', 131, 'transient'), send(2, 'sms', 'sms', 140, 'delivered')],
  }),
  view({
    acceptedAt: 150,
    plan: ['sms', 'push', 'email'],
    attempts: [send(1, 'sms', 'sms', 151, 'delivered')],
  }),
];
