import type { Channel, Priority, QuietRule } from '@notify/core';

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
  /** The notification's category when opt-outs apply to it (not a required one; docs/preferences.md). */
  category?: string;
  /** The notification's tenant: the opt-outs of its category, and the lane's fair share (fair-share/). */
  tenant?: string;
  /** The tenant's fair-share weight when not 1 (TENANTS_FILE `weight`), copied to every later step. */
  weight?: number;
  /** The job's fair-share start tag in its lane (fair-share/lane-tags.ts): the lane's virtual time moves to it as the job starts. */
  start?: number;
  /**
   * The quiet hours this notification waits out (decided at intake: a reminder, or an urgent
   * one with respectQuietHours, whose request, profile or tenant sets a window). Absent for the
   * rest, so the quiet-hours stage costs them nothing; copied to every later step.
   */
  quiet?: QuietRule;
}

/**
 * A batch job (`steps`): the first steps of many notifications of one lane (channel, priority
 * class, partition), so intake pays one BullMQ job (add, take, finish) for many notifications,
 * not one each. Each item is processed as a `step` job's data would be.
 */
export interface StepBatchJobData {
  steps: StepJobData[];
  /** The batch's fair-share start tag (all its items are of one tenant): as a step job's `start`. */
  start?: number;
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
