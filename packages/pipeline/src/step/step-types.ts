import type { AttemptOutcome, Channel, RecordedOutcome, SkipReason } from '@notify/core';
import type { ProviderAdapter } from '@notify/providers';

/** What the step processor tells tenant webhooks: a notification's terminal state, or a failed attempt. */
export type StepEventType =
  | 'notification.delivered'
  | 'notification.failed'
  | 'notification.unconfirmed'
  | 'notification.expired'
  | 'notification.canceled'
  | 'notification.opted_out'
  | 'attempt.failed';

/** Finds a provider's adapter by name (ProviderDirectory implements it). */
export interface ProviderLookup {
  get(name: string): ProviderAdapter;
}

/**
 * What an unknown outcome on a provider that takes no idempotency key and offers no lookup
 * becomes: `settle` ends the notification `unconfirmed` at once (no second send: it may have
 * been delivered), `resend` re-sends on the same provider (at least once: it may deliver twice).
 * Providers that honour a key always reconcile (a re-send is answered with the first result).
 */
export type UnknownOutcomePolicy = 'settle' | 'resend';

/**
 * How a step ends a notification without a delivery (`expired`: its expiresAt passed before a
 * call; `opted-out`: every channel closed before a call, at least one by the recipient's opt-out).
 */
export type EndStatus = 'failed' | 'unconfirmed' | 'expired' | 'opted-out';

/** What a step job did; returned as the BullMQ job's result (visible in bull-board). */
export type StepResult =
  | { action: 'called'; outcome: AttemptOutcome; channel: Channel }
  | { action: 'skipped'; reason: SkipReason; channel: Channel }
  | { action: 'processing-error'; channel: Channel; reason: string }
  | { action: 'ignored'; reason: 'terminal' | 'missing' | 'stale' | 'busy' }
  | { action: 'resumed' }
  | { action: 'deferred'; untilMs: number; reason: string }
  | { action: 'ended'; status: EndStatus; reason: string };

/**
 * The BullMQ job running a step: its id, and the in-flight lease (the worker's lockDuration / 2)
 * within which an attempt another job opened counts as still running (begin-attempt's `busy`).
 */
export interface StepRun {
  jobId?: string;
  leaseMs?: number;
}

/** A skip of one channel in one step, as the record keeps it. */
export interface Skip {
  channel: Channel;
  reason: SkipReason;
  at: number;
}

/** What the step that was just finished ended with: `not-sent` is a call that provably never left. */
export type After = RecordedOutcome | 'skip' | 'not-sent';
