import type { Redis } from 'ioredis';
import type { Channel, NotificationView, Priority } from '@notify/core';
import { latencyStats, pollUntilTerminal, readRecordViews, type LatencyStats } from '@notify/platform-kit';

/** The status records of `ids` that exist, read straight from Redis (the platform-kit reader). */
export async function readViews(redis: Redis, ids: readonly string[], partitions: number): Promise<NotificationView[]> {
  return (await readRecordViews(redis, ids, partitions)).filter((view): view is NotificationView => view !== undefined);
}

/** Polls until every record is terminal or `timeoutMs` passes; returns how many are still open. */
export async function waitUntilTerminal(redis: Redis, ids: readonly string[], partitions: number, timeoutMs: number, signal?: AbortSignal): Promise<number> {
  return (await pollUntilTerminal(redis, ids, { partitions, timeoutMs, intervalMs: 200, ...(signal ? { signal } : {}) })).open;
}

export interface RunFigures {
  notifications: number;
  accepted: number;
  delivered: number;
  failed: number;
  /** Why the failed ones failed (the record's reason), with counts. */
  failureReasons: Record<string, number>;
  deliveryRate: number;
  externalCalls: number;
  callsPerNotification: number;
  /** Calls to the dead channel started while it was down. */
  wastedCalls: number;
  /** Skips of the dead channel for an open breaker (each one a call not made). */
  breakerSkips: number;
  latency: Record<Priority, LatencyStats>;
  /** Urgent latency by preferred channel, before / during the outage (SMS and e-mail must not move). */
  urgentByPreferred: Record<Channel, { before: LatencyStats; during: LatencyStats; after: LatencyStats }>;
}

export interface OutageWindow {
  channel: Channel;
  /** The killed provider of `channel`, when the channel has several: only its calls are wasted. */
  provider?: string;
  downAt: number;
  upAt: number;
}

/**
 * The run's figures from the records themselves (every attempt with its channel, start time
 * and outcome), not from counters: what the platform did, notification by notification.
 */
export function summarize(
  views: readonly NotificationView[],
  submitted: number,
  preferredOf: (view: NotificationView) => Channel,
  outage: OutageWindow,
): RunFigures {
  let delivered = 0;
  let failed = 0;
  let externalCalls = 0;
  let wastedCalls = 0;
  let breakerSkips = 0;
  const failureReasons: Record<string, number> = {};
  const latency: Record<Priority, number[]> = { urgent: [], reminder: [] };
  const phases = () => ({ before: [] as number[], during: [] as number[], after: [] as number[] });
  const byPreferred: Record<Channel, ReturnType<typeof phases>> = { push: phases(), sms: phases(), email: phases() };
  for (const view of views) {
    if (view.status === 'delivered') delivered += 1;
    if (view.status === 'failed') {
      failed += 1;
      const reason = view.failureReason ?? 'unknown';
      failureReasons[reason] = (failureReasons[reason] ?? 0) + 1;
    }
    externalCalls += view.attempts.length;
    for (const a of view.attempts) {
      const dead = outage.provider === undefined ? a.channel === outage.channel : a.provider === outage.provider;
      if (dead && a.startedAt >= outage.downAt && a.startedAt < outage.upAt) wastedCalls += 1;
    }
    breakerSkips += view.skips.filter((s) => s.channel === outage.channel && s.reason === 'breaker-open').length;
    if (view.latencyMs === undefined) continue;
    latency[view.priority].push(view.latencyMs);
    if (view.priority === 'urgent') {
      const phase = view.acceptedAt < outage.downAt ? 'before' : view.acceptedAt < outage.upAt ? 'during' : 'after';
      byPreferred[preferredOf(view)][phase].push(view.latencyMs);
    }
  }
  const stats = (p: ReturnType<typeof phases>) => ({ before: latencyStats(p.before), during: latencyStats(p.during), after: latencyStats(p.after) });
  return {
    notifications: submitted,
    accepted: views.length,
    delivered,
    failed,
    failureReasons,
    deliveryRate: submitted === 0 ? 0 : delivered / submitted,
    externalCalls,
    callsPerNotification: submitted === 0 ? 0 : externalCalls / submitted,
    wastedCalls,
    breakerSkips,
    latency: { urgent: latencyStats(latency.urgent), reminder: latencyStats(latency.reminder) },
    urgentByPreferred: { push: stats(byPreferred.push), sms: stats(byPreferred.sms), email: stats(byPreferred.email) },
  };
}

/** One provider's calls and deliveries in a run, from the attempt records. */
export interface ProviderFigures {
  name: string;
  calls: number;
  deliveries: number;
  /** Calls started while the killed provider was down (on the killed one: every one refused). */
  callsWhileDown: number;
  deliveriesWhileDown: number;
}

export interface FailoverFigures {
  providers: ProviderFigures[];
  /** Notifications preferring the killed channel, accepted while its provider was down. */
  preferredDuringOutage: number;
  /** ... of them delivered on the channel anyway (by another provider): cascades avoided. */
  deliveredOnChannel: number;
  /** ... of them delivered on another channel (a cascade step). */
  deliveredElsewhere: number;
}

/**
 * Per provider of the outage's channel: calls and deliveries, overall and while the killed one
 * was down; and where the notifications preferring that channel during the outage were delivered.
 */
export function failoverFigures(
  views: readonly NotificationView[],
  providers: readonly string[],
  preferredOf: (view: NotificationView) => Channel,
  outage: OutageWindow,
): FailoverFigures {
  const rows = new Map(providers.map((name) => [name, { name, calls: 0, deliveries: 0, callsWhileDown: 0, deliveriesWhileDown: 0 }]));
  let preferredDuringOutage = 0;
  let deliveredOnChannel = 0;
  let deliveredElsewhere = 0;
  for (const view of views) {
    for (const a of view.attempts) {
      const row = a.provider === undefined ? undefined : rows.get(a.provider);
      if (!row) continue;
      const down = a.startedAt >= outage.downAt && a.startedAt < outage.upAt;
      row.calls += 1;
      if (down) row.callsWhileDown += 1;
      if (a.outcome === 'delivered') {
        row.deliveries += 1;
        if (down) row.deliveriesWhileDown += 1;
      }
    }
    if (preferredOf(view) !== outage.channel || view.acceptedAt < outage.downAt || view.acceptedAt >= outage.upAt) continue;
    preferredDuringOutage += 1;
    const delivery = view.attempts.find((a) => a.outcome === 'delivered');
    if (delivery?.channel === outage.channel) deliveredOnChannel += 1;
    else if (delivery) deliveredElsewhere += 1;
  }
  return { providers: [...rows.values()], preferredDuringOutage, deliveredOnChannel, deliveredElsewhere };
}
