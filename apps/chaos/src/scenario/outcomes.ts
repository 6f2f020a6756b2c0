import type { Redis } from 'ioredis';
import { isTerminal, notificationKey, type Channel, type NotificationView, type Priority } from '@notify/core';
import { toNotificationView, type RecordFields } from '@notify/pipeline';
import { latencyStats, type LatencyStats } from '@notify/platform-kit';

const CHUNK = 500;

/** The status records of `ids`, read straight from Redis in pipelined chunks (missing ones are left out). */
export async function readViews(redis: Redis, ids: readonly string[]): Promise<NotificationView[]> {
  const views: NotificationView[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const pipeline = redis.pipeline();
    for (const id of ids.slice(i, i + CHUNK)) pipeline.hgetall(notificationKey(id));
    for (const [error, fields] of (await pipeline.exec()) ?? []) {
      if (!error && fields && (fields as RecordFields).id) views.push(toNotificationView(fields as RecordFields));
    }
  }
  return views;
}

/** Polls until every record is terminal or `timeoutMs` passes; returns how many are still open. */
export async function waitUntilTerminal(redis: Redis, ids: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let open = ids.length;
  while (!signal?.aborted) {
    open = 0;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const pipeline = redis.pipeline();
      for (const id of ids.slice(i, i + CHUNK)) pipeline.hget(notificationKey(id), 'status');
      for (const [error, status] of (await pipeline.exec()) ?? []) {
        if (error || typeof status !== 'string' || !isTerminal(status as never)) open += 1;
      }
    }
    if (open === 0 || Date.now() >= deadline) return open;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return open;
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
      if (a.channel === outage.channel && a.startedAt >= outage.downAt && a.startedAt < outage.upAt) wastedCalls += 1;
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
