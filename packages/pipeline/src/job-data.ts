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
  /**
   * When the notification expires (ms), copied from the record: a later step is never delayed
   * past it (schedule-next-step). The record's own field is what begin-attempt checks.
   */
  expiresAt?: number;
}

/**
 * A batch job (`steps`): the first steps of many notifications of one lane (channel, priority
 * class, partition), so intake pays one BullMQ job (add, take, finish) for many notifications,
 * not one each. Each item is processed as a `step` job's data would be.
 */
export interface StepBatchJobData {
  steps: StepJobData[];
}

/** What a lane queue holds: `step` jobs and `steps` (batch) jobs. */
export type LaneJobData = StepJobData | StepBatchJobData;

export const STEP_JOB_NAME = 'step';
export const STEP_BATCH_JOB_NAME = 'steps';

export function isStepBatch(data: LaneJobData): data is StepBatchJobData {
  return Array.isArray((data as Partial<StepBatchJobData>).steps);
}

/** The steps a lane job carries: its items, or itself. */
export function stepsOf(data: LaneJobData): StepJobData[] {
  return isStepBatch(data) ? data.steps : [data];
}
