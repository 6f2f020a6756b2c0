import { CHANNELS, seededRandom, type Channel, type NotificationRequest, type Priority } from '@notify/core';

/** BI4: the share of recipients preferring push / SMS / e-mail. */
export const CHANNEL_SHARES: Record<Channel, number> = { push: 0.55, sms: 0.25, email: 0.2 };

export interface TrafficItem {
  index: number;
  preferred: Channel;
  priority: Priority;
  request: NotificationRequest;
}

export interface TrafficOptions {
  count: number;
  seed: number;
  /** Share of urgent notifications; the rest are reminders. */
  urgentShare: number;
  /** Makes event and recipient ids unique per run. */
  tag: string;
}

/** The same seeded generator as the simulators', so two runs (breaker on / off) send the same traffic. */
export { seededRandom };

function pickPreferred(u: number): Channel {
  let acc = 0;
  for (const channel of CHANNELS) {
    acc += CHANNEL_SHARES[channel];
    if (u < acc) return channel;
  }
  return CHANNELS[CHANNELS.length - 1] as Channel;
}

/**
 * The brief's traffic, scaled down: every recipient has an address on all three channels and
 * prefers one (BI4 shares); the others follow in the default order. Addresses depend on the
 * index only, so the simulators' stable permanent errors (BI6) hit the same recipients in
 * every run with the same seed.
 */
export function makeTraffic(options: TrafficOptions): TrafficItem[] {
  const random = seededRandom(options.seed);
  const items: TrafficItem[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const preferred = pickPreferred(random());
    const priority: Priority = random() < options.urgentShare ? 'urgent' : 'reminder';
    const preferences = [preferred, ...CHANNELS.filter((c) => c !== preferred)];
    const n = String(index).padStart(7, '0');
    items.push({
      index, preferred, priority,
      request: {
        eventId: `${options.tag}-e${index}`,
        priority,
        recipient: {
          id: `${options.tag}-r${index}`,
          addresses: { push: `push-token-${options.seed}-${n}`, sms: `+90555${n}`, email: `r${n}-${options.seed}@example.com` },
          preferences,
        },
        content: { title: 'Your order', body: `Update ${index}: your parcel is on its way.` },
      },
    });
  }
  return items;
}
