import type { Channel, Priority } from './channels';

/**
 * `unconfirmed` is terminal: a call's outcome stayed unknown (the provider may have delivered)
 * and could not be settled (the budget was spent, or its channel stayed unreachable until the
 * maximum age). It is never reported as `failed` (architecture invariant 9).
 */
export const NOTIFICATION_STATUSES = [
  'accepted',
  'routing',
  'sending',
  'retry-scheduled',
  'delivered',
  'failed',
  'unconfirmed',
  'bounced',
  'complained',
  'scheduled',
  'canceled',
  'expired',
  'opted-out',
] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/**
 * `scheduled`: accepted with a `sendAt` still ahead; nothing was called yet (docs/scheduling.md).
 * `canceled`: ended by the tenant before any provider call could start; `expired`: its
 * `expiresAt` passed before it was delivered. Neither ever made a call after that decision.
 * The list is append-only: the history stores a status as its position.
 */

/**
 * `bounced` / `complained`: delivered, then the provider reported a hard bounce or a complaint
 * (docs/provider-events.md); the attempt history keeps the delivery and the receipt.
 */
/** The reasons a canceled and an expired record give (the history stores them as known codes). */
export const CANCELED_REASON = 'canceled by its tenant';
export const EXPIRED_REASON = 'its expiresAt passed before it was delivered';

/**
 * `opted-out`: every channel of the plan was passed over before any call, at least one because
 * the recipient opted out of it for the category (the rest suppressed): the recipient chose, so
 * it is no failure (docs/preferences.md). Its reason: `all-channels-opted-out`.
 */
export const TERMINAL_STATUSES = ['delivered', 'failed', 'unconfirmed', 'bounced', 'complained', 'canceled', 'expired', 'opted-out'] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminal(status: NotificationStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
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

/**
 * What the history records for a step: a provider outcome, or `processing-error` when the
 * message could not be rendered for the channel (decided before any call: nothing was sent,
 * no budget spent, the cascade moves on; never confused with a worker that died mid-call).
 */
export const RECORDED_OUTCOMES = [...ATTEMPT_OUTCOMES, 'processing-error'] as const;
export type RecordedOutcome = (typeof RECORDED_OUTCOMES)[number];

/** One external call, as the status record keeps it. */
export interface AttemptRecord {
  step: number;
  channel: Channel;
  /** The provider that made the call (breakers and failover are per provider); absent in records from before providers. */
  provider?: string;
  /** `reconcile` re-sends with the same key after an unknown outcome. */
  kind: 'send' | 'reconcile';
  startedAt: number;
  finishedAt?: number;
  durationMs?: number;
  /** Absent while the call is in flight (or if the worker died during it). */
  outcome?: RecordedOutcome;
  /**
   * False when the step spent none of the budget: the request provably never left (connection
   * refused or connect error before it was written), or nothing was called (processing error).
   */
  spent?: boolean;
  errorClass?: string;
  message?: string;
  /** The provider's id of the message (SMTP queue id, SMPP message_id, HTTP SMS sid...), when it answered one. */
  providerMessageId?: string;
  /** What the provider reported later about this message (a receipt, a bounce, a complaint); the newest one. */
  receipt?: ReceiptKind;
  receiptAt?: number;
  receiptDetail?: string;
  /** Every receipt in arrival order (the newest is also in `receipt`). */
  receipts?: { kind: ReceiptKind; at: number; detail?: string; bounceType?: 'hard' | 'soft' }[];
}

/** What a provider can report about a message after the call (docs/provider-events.md). */
export const RECEIPT_KINDS = ['delivered', 'undeliverable', 'expired', 'bounced', 'complained'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/** `opted-out`: the recipient opted out of the channel for the notification's category (docs/preferences.md). Append-only (history codes). */
export const SKIP_REASONS = ['breaker-open', 'no-address', 'suppressed', 'permanent-failure', 'opted-out'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** A channel passed over without spending budget, and why. */
export interface SkipRecord {
  channel: Channel;
  reason: SkipReason;
  at: number;
}

/** A step held back before it started (a stage's defer, e.g. `quiet-hours`): why, from when, until when (the record keeps the newest few). */
export interface WaitRecord {
  reason: string;
  at: number;
  until: number;
}

export interface NotificationView {
  id: string;
  eventId: string;
  recipientId: string;
  priority: Priority;
  status: NotificationStatus;
  plan: Channel[];
  deliveredChannel?: Channel;
  acceptedAt: number;
  /** When it was scheduled to be sent (ms; only for a notification accepted with a `sendAt`). */
  sendAt?: number;
  /** When the releaser moved it from `scheduled` to its lane (ms). */
  releasedAt?: number;
  deliveredAt?: number;
  finishedAt?: number;
  latencyMs?: number;
  failureReason?: string;
  /** When it expires (ms; from `expiresAt` or `ttlSeconds`): no call opens after it. */
  expiresAt?: number;
  attempts: AttemptRecord[];
  skips: SkipRecord[];
  /** Present once a step waited (quiet hours): the newest waits, oldest first. */
  waits?: WaitRecord[];
}
