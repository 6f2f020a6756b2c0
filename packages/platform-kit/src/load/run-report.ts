import type { LedgerSummary } from '@notify/core';
import { ledgerCalls, readLedger } from './ledger';
import type { OpenLoopResult } from './open-loop';
import { histogramBuckets, quantileFromBuckets, sumSamples } from './prometheus-text';
import { percentile } from './stats';

/** The workers' metrics and the simulators' ledger at one moment (both are cumulative). */
export interface Snapshot {
  metrics: string;
  ledger: LedgerSummary | undefined;
}

export async function takeSnapshot(workerMetricsUrls: readonly string[], simControlUrl: string | undefined): Promise<Snapshot> {
  const texts = await Promise.all(workerMetricsUrls.map(async (url) => (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text()));
  return { metrics: texts.join('\n'), ledger: simControlUrl ? await readLedger(simControlUrl) : undefined };
}

export function terminalCount(snapshot: Snapshot): number {
  return sumSamples(snapshot.metrics, 'notify_notifications_total');
}

export interface RunReport {
  offered: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  failedRequests: number;
  /** Offered but not sent: the client already had its maximum of requests in flight. */
  skippedForBackpressure: number;
  seconds: number;
  intakePerSecond: number;
  requestP50Ms: number;
  requestP99Ms: number;
  delivered: number;
  failed: number;
  unfinished: number;
  deliveryRate: number;
  externalCalls: number | null;
  callsPerNotification: number | null;
  duplicateDeliveries: number | null;
  latency: Record<'urgent' | 'reminder', { meanSeconds: number | null; p95UpperSeconds: number | null; count: number }>;
}

/** The run as deltas between two snapshots (metrics are cumulative per process). */
export function buildReport(load: OpenLoopResult, before: Snapshot, after: Snapshot): RunReport {
  const delta = (name: string, labels: Record<string, string> = {}) => sumSamples(after.metrics, name, labels) - sumSamples(before.metrics, name, labels);
  const delivered = delta('notify_notifications_total', { outcome: 'delivered' });
  const failed = delta('notify_notifications_total', { outcome: 'failed' });
  const latency = {} as RunReport['latency'];
  for (const priority of ['urgent', 'reminder'] as const) {
    const count = delta('notify_delivery_latency_seconds_count', { priority });
    const sum = delta('notify_delivery_latency_seconds_sum', { priority });
    const b0 = histogramBuckets(before.metrics, 'notify_delivery_latency_seconds', { priority });
    const b1 = histogramBuckets(after.metrics, 'notify_delivery_latency_seconds', { priority });
    const diff = new Map([...b1].map(([le, c]) => [le, c - (b0.get(le) ?? 0)]));
    latency[priority] = { meanSeconds: count > 0 ? sum / count : null, p95UpperSeconds: quantileFromBuckets(diff, 0.95) ?? null, count };
  }
  const externalCalls = after.ledger ? ledgerCalls(after.ledger) - (before.ledger ? ledgerCalls(before.ledger) : 0) : null;
  return {
    offered: load.offered,
    accepted: load.accepted,
    duplicates: load.duplicates,
    rejected: load.rejected,
    failedRequests: load.failed,
    skippedForBackpressure: load.skippedForBackpressure,
    seconds: load.seconds,
    intakePerSecond: load.accepted / load.seconds,
    requestP50Ms: percentile(load.requestLatenciesMs, 50) ?? 0,
    requestP99Ms: percentile(load.requestLatenciesMs, 99) ?? 0,
    delivered,
    failed,
    unfinished: Math.max(0, load.accepted - delivered - failed),
    deliveryRate: load.accepted > 0 ? delivered / load.accepted : 0,
    externalCalls,
    callsPerNotification: externalCalls === null || load.accepted === 0 ? null : externalCalls / load.accepted,
    duplicateDeliveries: after.ledger ? after.ledger.duplicateKeys.length - (before.ledger?.duplicateKeys.length ?? 0) : null,
    latency,
  };
}

export function formatReport(r: RunReport): string {
  const n = (v: number | null, d = 3) => (v === null ? 'n/a' : v.toFixed(d));
  return [
    `offered ${r.offered} in ${r.seconds.toFixed(1)} s; accepted ${r.accepted} (${r.intakePerSecond.toFixed(1)}/s), duplicates ${r.duplicates}, rejected ${r.rejected}, failed requests ${r.failedRequests}, not sent (client at its in-flight limit) ${r.skippedForBackpressure}`,
    `intake request latency p50 ${r.requestP50Ms.toFixed(1)} ms, p99 ${r.requestP99Ms.toFixed(1)} ms`,
    `delivered ${r.delivered}, failed ${r.failed}, unfinished ${r.unfinished}; delivery rate ${r.deliveryRate.toFixed(4)} (target >= 0.99)`,
    `external calls ${r.externalCalls ?? 'n/a'} (${n(r.callsPerNotification)}/notification); duplicate deliveries ${r.duplicateDeliveries ?? 'n/a'} (must be 0)`,
    `urgent latency mean ${n(r.latency.urgent.meanSeconds)} s (target <= 5 s), p95 <= ${n(r.latency.urgent.p95UpperSeconds, 2)} s over ${r.latency.urgent.count}`,
    `reminder latency mean ${n(r.latency.reminder.meanSeconds)} s, p95 <= ${n(r.latency.reminder.p95UpperSeconds, 2)} s over ${r.latency.reminder.count}`,
  ].join('\n');
}
