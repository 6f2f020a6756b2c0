import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { PipelineMetrics } from '@notify/metrics';
import { stepsOf, type LaneJobData, type StepJobData } from './job-data';
import type { LaneJobResult } from './lane-job-runner';
import type { Scripts } from './scripts';

/**
 * BullMQ gave up on a job (it threw on every retry, e.g. Redis kept failing): end the
 * notification as failed at that step, so nothing stays "in progress" forever. The record
 * refuses if the notification already moved on or was delivered.
 */
export async function onLaneJobFailed(
  deps: { scripts: Scripts; metrics: PipelineMetrics; logger: Logger },
  job: Job<LaneJobData, LaneJobResult> | undefined,
  error: Error,
): Promise<void> {
  if (!job) return;
  const exhausted = job.attemptsMade >= (job.opts.attempts ?? 1);
  const steps = stepsOf(job.data);
  deps.logger.warn(
    { err: error, notificationId: steps[0]?.id, step: steps[0]?.step, ...(steps.length > 1 ? { steps: steps.length } : {}), exhausted },
    'step job failed',
  );
  if (!exhausted) return;
  // A batch: each item ends as a single job would (the record refuses those that moved on or ended).
  await Promise.all(steps.map((step) => endFailed(deps, step, error)));
}

async function endFailed(deps: { scripts: Scripts; metrics: PipelineMetrics; logger: Logger }, step: StepJobData, error: Error): Promise<void> {
  try {
    const ended = await deps.scripts.finishNotification({
      id: step.id,
      fromStep: step.step,
      status: 'failed',
      reason: `processing error: ${error.message.slice(0, 200)}`,
      now: Date.now(),
    });
    if (ended.code === 'ended') deps.metrics.notifications.inc({ priority: step.priority, outcome: 'failed' });
  } catch (finishError) {
    deps.logger.error({ err: finishError, notificationId: step.id }, 'could not mark notification failed');
  }
}
