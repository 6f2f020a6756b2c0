import { CHANNELS, seededRandom, type Channel, type NotificationRequest, type Priority } from '@notify/core';
import { BI_ASSUMPTIONS } from '@notify/models';

export interface TrafficItem {
  index: number;
  preferred: Channel;
  priority: Priority;
  request: NotificationRequest;
}

export interface TrafficOptions {
  seed: number;
  /** Share of urgent notifications; the rest are reminders. */
  urgentShare: number;
  /** Makes event and recipient ids unique per run. */
  tag: string;
  /** BI4: the share of recipients preferring each channel (default: the models' assumptions). */
  channelShare?: Readonly<Record<Channel, number>>;
}

/** The channel whose cumulative share first exceeds `u` in [0, 1). */
export function pickPreferred(u: number, shares: Readonly<Record<Channel, number>> = BI_ASSUMPTIONS.channelShare): Channel {
  let acc = 0;
  for (const channel of CHANNELS) {
    acc += shares[channel];
    if (u < acc) return channel;
  }
  return CHANNELS[CHANNELS.length - 1] as Channel;
}

/**
 * The brief's traffic as a seeded stream: every recipient has an address on all three
 * channels and prefers one (BI4 shares); the others follow in the default order. The same
 * seed gives the same stream (two runs, breaker on and off, send the same traffic), and
 * addresses depend on the index only, so the simulators' stable permanent errors (BI6) hit
 * the same recipients in every run.
 */
export function trafficMix(options: TrafficOptions): () => TrafficItem {
  const random = seededRandom(options.seed);
  const shares = options.channelShare ?? BI_ASSUMPTIONS.channelShare;
  let index = 0;
  return () => {
    const preferred = pickPreferred(random(), shares);
    const priority: Priority = random() < options.urgentShare ? 'urgent' : 'reminder';
    const n = String(index % 10_000_000).padStart(7, '0');
    const item: TrafficItem = {
      index,
      preferred,
      priority,
      request: {
        eventId: `${options.tag}-e${index}`,
        priority,
        recipient: {
          id: `${options.tag}-r${index}`,
          addresses: { push: `push-token-${options.seed}-${n}`, sms: `+90555${n}`, email: `r${n}-${options.seed}@example.com` },
          preferences: [preferred, ...CHANNELS.filter((c) => c !== preferred)],
        },
        content: { title: 'Your order', body: `Update ${index}: your parcel is on its way.` },
      },
    };
    index += 1;
    return item;
  };
}

/** The first `count` items of the stream. */
export function makeTraffic(options: TrafficOptions & { count: number }): TrafficItem[] {
  const next = trafficMix(options);
  return Array.from({ length: options.count }, () => next());
}
