import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { CALL_DURATION_BUCKETS, DELIVERY_LATENCY_BUCKETS } from './buckets';

/** The delivery pipeline's metrics. Labels are bounded: channel, priority, outcome, reason, stage. */
export function createPipelineMetrics(registry: Registry) {
  const registers = [registry];
  return {
    intakeRequests: new Counter({
      name: 'notify_intake_requests_total',
      help: 'Notification intake results per item (accepted, duplicate, conflict, invalid, rejected, error).',
      labelNames: ['result', 'priority'] as const,
      registers,
    }),
    notifications: new Counter({
      name: 'notify_notifications_total',
      help: 'Notifications that reached a terminal state, by priority and outcome (delivered, failed, unconfirmed).',
      labelNames: ['priority', 'outcome'] as const,
      registers,
    }),
    canceled: new Counter({
      name: 'notify_notifications_canceled_total',
      help: 'Notifications canceled by their tenant before a provider call (not in notify_notifications_total: a cancel is no delivery outcome).',
      labelNames: ['priority'] as const,
      registers,
    }),
    expired: new Counter({
      name: 'notify_notifications_expired_total',
      help: 'Notifications that ended expired: their expiresAt passed before a delivery (not in notify_notifications_total).',
      labelNames: ['priority'] as const,
      registers,
    }),
    attempts: new Counter({
      name: 'notify_delivery_attempts_total',
      help: 'External provider calls by channel and outcome (delivered, transient, permanent, unknown).',
      labelNames: ['channel', 'outcome'] as const,
      registers,
    }),
    skips: new Counter({
      name: 'notify_channel_skips_total',
      help: 'Channels passed over without spending budget, by reason (breaker-open, suppressed, no-address).',
      labelNames: ['channel', 'reason'] as const,
      registers,
    }),
    deliveryLatency: new Histogram({
      name: 'notify_delivery_latency_seconds',
      help: 'Time from acceptance to the provider accepting the notification, by priority.',
      labelNames: ['priority'] as const,
      buckets: DELIVERY_LATENCY_BUCKETS,
      registers,
    }),
    cascadeDepth: new Histogram({
      name: 'notify_cascade_depth_calls',
      help: 'External calls a notification used before its terminal state, by outcome.',
      labelNames: ['outcome'] as const,
      buckets: [0, 1, 2, 3, 4, 5],
      registers,
    }),
    duplicatesBlocked: new Counter({
      name: 'notify_duplicates_blocked_total',
      help: 'Repeated work stopped by idempotency, by stage (intake: client retry; worker: re-run or stale job).',
      labelNames: ['stage'] as const,
      registers,
    }),
    callDuration: new Histogram({
      name: 'notify_provider_call_duration_seconds',
      help: 'Provider call duration by channel and outcome.',
      labelNames: ['channel', 'outcome'] as const,
      buckets: CALL_DURATION_BUCKETS,
      registers,
    }),
    intakeReplication: new Counter({
      name: 'notify_intake_replication_total',
      help: 'Intake WAITs for replicas (INTAKE_WAIT_REPLICAS > 0) by result: replicated, short (fewer replicas acknowledged in time; still accepted), error.',
      labelNames: ['result'] as const,
      registers,
    }),
    inFlight: new Gauge({
      name: 'notify_bulkhead_in_flight',
      help: 'Provider calls in flight per channel bulkhead.',
      labelNames: ['channel'] as const,
      registers,
    }),
    receiptIndexFailures: new Counter({
      name: 'notify_receipt_index_failures_total',
      help: 'Provider message ids whose receipt index entry could not be written (best effort: a later receipt for it is unmatched).',
      labelNames: ['channel'] as const,
      registers,
    }),
  };
}

export type PipelineMetrics = ReturnType<typeof createPipelineMetrics>;

/** The terminal outcomes `notify_notifications_total` counts. */
export const TERMINAL_OUTCOMES = ['delivered', 'failed', 'unconfirmed'] as const;

/**
 * Exposes every (priority, outcome) series of `notify_notifications_total` at 0 from the start.
 * prom-client creates a labelled series at its first increment; a series Prometheus first scrapes
 * at its final value has no rate (a burst finished between two scrapes reads as 0/0), so the
 * delivery-ratio rules and alerts would see nothing. Called by the processes that count them.
 */
export function exposeTerminalSeries(metrics: PipelineMetrics, priorities: readonly string[]): void {
  for (const priority of priorities) for (const outcome of TERMINAL_OUTCOMES) metrics.notifications.inc({ priority, outcome }, 0);
}
