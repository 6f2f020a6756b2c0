import type { NotificationView } from '@notify/core';
import { percentile } from '@notify/platform-kit';

export interface ReleaseFigures {
  scheduled: number;
  delivered: number;
  /** Released before their sendAt, or a call started before it (must be 0). */
  early: number;
  /** Release lateness (releasedAt - sendAt, Redis clock), ms. */
  latenessP50: number | undefined;
  latenessP99: number | undefined;
  latenessMax: number | undefined;
  /** sendAt -> delivered, ms (the lanes' queueing during the burst included). */
  deliveryP50: number | undefined;
  deliveryP99: number | undefined;
  /** Deliveries per second between the first and the last scheduled delivery. */
  drainRate: number | undefined;
}

/** The figures of a release, read from the scheduled notifications' records after they ended. */
export function releaseFigures(views: readonly (NotificationView | undefined)[]): ReleaseFigures {
  const lateness: number[] = [];
  const delivery: number[] = [];
  let early = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const v of views) {
    if (!v?.sendAt) continue;
    if (v.releasedAt !== undefined) {
      lateness.push(v.releasedAt - v.sendAt);
      if (v.releasedAt < v.sendAt) early += 1;
    }
    if (v.attempts.some((a) => a.startedAt < (v.sendAt as number))) early += 1;
    if (v.deliveredAt !== undefined) {
      delivery.push(v.deliveredAt - v.sendAt);
      first = Math.min(first, v.deliveredAt);
      last = Math.max(last, v.deliveredAt);
    }
  }
  return {
    scheduled: views.length,
    delivered: delivery.length,
    early,
    latenessP50: percentile(lateness, 50),
    latenessP99: percentile(lateness, 99),
    latenessMax: lateness.reduce((a, b) => Math.max(a, b), -Infinity),
    deliveryP50: percentile(delivery, 50),
    deliveryP99: percentile(delivery, 99),
    drainRate: last > first ? (delivery.length / (last - first)) * 1000 : undefined,
  };
}
