import type { Channel, Priority } from '@notify/core';

/**
 * A channel job is only a pointer: the record in Redis holds the content and the state, so a
 * re-run or a stale job always acts on the truth, and cascade steps copy no payload.
 */
export interface StepJobData {
  /** Notification id (the idempotency hash). */
  id: string;
  /** Recipient hash, for the (recipient, channel) suppression key. */
  rh: string;
  priority: Priority;
  /** 1-based step number; each step makes at most one external call. */
  step: number;
  channel: Channel;
  /** A reconciliation only: the provider that made the unknown call and holds its idempotency key. */
  provider?: string;
}
