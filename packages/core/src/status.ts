import type { Channel, Priority } from './channels';

export const NOTIFICATION_STATUSES = ['accepted', 'routing', 'sending', 'retry-scheduled', 'delivered', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export function isTerminal(status: NotificationStatus): boolean {
  return status === 'delivered' || status === 'failed';
}

/**
 * What one external call ended with.
 * - delivered: the provider accepted it.
 * - transient: 5xx, 429, connection refused/reset before the request was sent: a retry may work.
 * - permanent: the provider refused the address or consent (4xx): a retry never works.
 * - unknown: timed out after the request was sent; the provider may have delivered it, so
 *   the next call must reconcile on the same channel with the same idempotency key.
 */
export const ATTEMPT_OUTCOMES = ['delivered', 'transient', 'permanent', 'unknown'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One external call, as the status record keeps it. */
export interface AttemptRecord {
  step: number;
  channel: Channel;
  /** `reconcile` re-sends with the same key after an unknown outcome. */
  kind: 'send' | 'reconcile';
  startedAt: number;
  finishedAt?: number;
  durationMs?: number;
  /** Absent while the call is in flight (or if the worker died during it). */
  outcome?: AttemptOutcome;
  errorClass?: string;
  message?: string;
}

/** A channel passed over without spending budget, and why. */
export interface SkipRecord {
  channel: Channel;
  reason: SkipReason;
  at: number;
}

export const SKIP_REASONS = ['breaker-open', 'no-address', 'suppressed', 'permanent-failure'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface NotificationView {
  id: string;
  eventId: string;
  recipientId: string;
  priority: Priority;
  status: NotificationStatus;
  plan: Channel[];
  deliveredChannel?: Channel;
  acceptedAt: number;
  deliveredAt?: number;
  finishedAt?: number;
  latencyMs?: number;
  failureReason?: string;
  attempts: AttemptRecord[];
  skips: SkipRecord[];
}
