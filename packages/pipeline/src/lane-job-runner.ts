import { isStepBatch, stepsOf, type LaneJobData, type StepJobData } from './job-data';
import type { LaneSemaphore } from './lane-semaphore';
import type { StepResult, StepRun } from './step-processor';

export interface LaneJobRunner {
  /** Runs one step (StepProcessor.process). */
  process(data: StepJobData, run: StepRun): Promise<StepResult>;
  /** The lane's bulkhead in this process: every step holds one slot while it runs. */
  semaphore: LaneSemaphore;
  /** begin-attempt's in-flight lease: the worker's lockDuration / 2. */
  leaseMs: number;
  /**
   * Set on a rate-limited lane: BullMQ's limiter counts jobs, so a batch job is split into
   * single step jobs (each counted) instead of being run.
   */
  split?: (steps: StepJobData[]) => Promise<void>;
  /** Fair share on: told of each job taken (its start tag moves the lane's virtual time). */
  started?: (data: LaneJobData) => void;
  /** An urgent lane: told of the steps a job runs, before they run (they leave the urgent backlog); a split batch's are told when its single jobs run. */
  takenUp?: (steps: StepJobData[]) => void;
}

/** What a lane job returns (bull-board shows it): a step's result, or a batch's per item. */
export type LaneJobResult = StepResult | { action: 'batch'; results: StepResult[] } | { action: 'split'; steps: number };

/**
 * Runs a lane job: a `step` job's one step, or a `steps` batch job's items concurrently, each
 * holding a slot of the lane's semaphore. A batch waits for all its items; if any threw, the
 * job throws (naming them) and BullMQ retries the whole job: the items that finished answer
 * terminal or stale on the re-run (begin-attempt), so nothing is repeated.
 */
export async function runLaneJob(job: { id?: string; data: LaneJobData }, runner: LaneJobRunner): Promise<LaneJobResult> {
  const run: StepRun = { leaseMs: runner.leaseMs, ...(job.id !== undefined ? { jobId: job.id } : {}) };
  runner.started?.(job.data);
  if (!isStepBatch(job.data)) {
    const step = job.data;
    runner.takenUp?.([step]);
    return runner.semaphore.run(() => runner.process(step, run));
  }
  const steps = stepsOf(job.data);
  if (runner.split) {
    await runner.split(steps);
    return { action: 'split', steps: steps.length };
  }
  runner.takenUp?.(steps);
  const settled = await Promise.allSettled(steps.map((step) => runner.semaphore.run(() => runner.process(step, run))));
  const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [{ id: (steps[i] as StepJobData).id, error: s.reason as unknown }] : []));
  if (failed.length > 0) {
    const first = failed[0]?.error;
    throw new AggregateError(
      failed.map((f) => f.error),
      `${failed.length} of ${steps.length} steps failed (${failed.map((f) => f.id).join(', ')}): ${first instanceof Error ? first.message : String(first)}`,
    );
  }
  return { action: 'batch', results: settled.map((s) => (s as PromiseFulfilledResult<StepResult>).value) };
}
