import type { Registry } from 'prom-client';
import { counter, gauge, histogram } from './metric-factories';
import { CALL_DURATION_BUCKETS, DELIVERY_LATENCY_BUCKETS } from './buckets';

/** The delivery pipeline's metrics. Labels are bounded: channel, priority, outcome, reason, stage. */
export function createPipelineMetrics(registry: Registry) {
  return {
    intakeRequests: counter(
      registry,
      'notify_intake_requests_total',
      'Notification intake results per item (accepted, duplicate, conflict, invalid, rejected, backlog_full, error).',
      ['result', 'priority'],
    ),
    notifications: counter(
      registry,
      'notify_notifications_total',
      'Notifications that reached a terminal state, by priority and outcome (delivered, failed, unconfirmed).',
      ['priority', 'outcome'],
    ),
    canceled: counter(
      registry,
      'notify_notifications_canceled_total',
      'Notifications canceled by their tenant before a provider call (not in notify_notifications_total: a cancel is no delivery outcome).',
      ['priority'],
    ),
    expired: counter(
      registry,
      'notify_notifications_expired_total',
      'Notifications that ended expired: their expiresAt passed before a delivery (not in notify_notifications_total).',
      ['priority'],
    ),
    optedOut: counter(
      registry,
      'notify_notifications_opted_out_total',
      'Notifications ended opted-out: every channel closed before a call, at least one by the recipient (not in notify_notifications_total).',
      ['priority'],
    ),
    attempts: counter(
      registry,
      'notify_delivery_attempts_total',
      'External provider calls by channel and outcome (delivered, transient, permanent, unknown).',
      ['channel', 'outcome'],
    ),
    skips: counter(registry, 'notify_channel_skips_total', 'Channels passed over without spending budget, by reason (breaker-open, suppressed, no-address).', [
      'channel',
      'reason',
    ]),
    quietHoursDeferrals: counter(
      registry,
      'notify_quiet_hours_deferrals_total',
      "Steps held back because they would have started inside the recipient's quiet hours, by channel and priority.",
      ['channel', 'priority'],
    ),
    deliveryLatency: histogram(
      registry,
      'notify_delivery_latency_seconds',
      'Time from acceptance to the provider accepting the notification, by priority.',
      ['priority'],
      DELIVERY_LATENCY_BUCKETS,
    ),
    cascadeDepth: histogram(
      registry,
      'notify_cascade_depth_calls',
      'External calls a notification used before its terminal state, by outcome.',
      ['outcome'],
      [0, 1, 2, 3, 4, 5],
    ),
    duplicatesBlocked: counter(
      registry,
      'notify_duplicates_blocked_total',
      'Repeated work stopped by idempotency, by stage (intake: client retry; worker: re-run or stale job).',
      ['stage'],
    ),
    callDuration: histogram(
      registry,
      'notify_provider_call_duration_seconds',
      'Provider call duration by channel and outcome.',
      ['channel', 'outcome'],
      CALL_DURATION_BUCKETS,
    ),
    intakeReplication: counter(
      registry,
      'notify_intake_replication_total',
      'Intake WAITs for replicas (INTAKE_WAIT_REPLICAS > 0) by result: replicated, short (fewer replicas acknowledged in time; still accepted), error.',
      ['result'],
    ),
    inFlight: gauge(registry, 'notify_bulkhead_in_flight', 'Provider calls in flight per channel bulkhead.', ['channel']),
    reminderLimit: gauge(
      registry,
      'notify_reminder_lane_limit',
      'Calls a reminder lane may run at once in this worker now: its concurrency, or less while it gives way to urgent work (REMINDER_YIELD_*).',
      ['channel'],
    ),
    receiptIndexFailures: counter(
      registry,
      'notify_receipt_index_failures_total',
      'Provider message ids whose receipt index entry could not be written (best effort: a later receipt for it is unmatched).',
      ['channel'],
    ),
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
