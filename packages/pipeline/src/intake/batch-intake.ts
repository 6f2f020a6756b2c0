import { notificationRequestSchema, parseOrThrow, type NotificationRequest } from '@notify/core';
import type { StepJobData } from '../job-data';
import { classifyIntakeError } from './intake-errors';
import { waitReplicated } from './intake-replication';
import type { BatchItemResult, IntakeDeps, IntakeResult } from './intake-types';
import { prepareIntake } from './prepare-intake';
import { reserveIntake } from './reserve-intake';

/** Up to 1,000 notifications: per-item results; the enqueues go out as one bulk per lane. */
export async function acceptBatch(deps: IntakeDeps, tenant: string, items: unknown[]): Promise<BatchItemResult[]> {
  const results: BatchItemResult[] = new Array<BatchItemResult>(items.length);
  const open = await deps.gate.openChannels().catch((e: unknown) => {
    throw classifyIntakeError(deps.metrics, e, undefined);
  });
  const enqueues: { index: number; priority: NotificationRequest['priority']; data: StepJobData; again: boolean }[] = [];
  const outcomes = new Map<number, IntakeResult>();
  // Accepted with a sendAt ahead: no job now, but their records wait for the replicas too.
  const scheduled: { index: number; id: string }[] = [];
  await Promise.all(
    items.map(async (item, index) => {
      try {
        const request = parseOrThrow(notificationRequestSchema, item, `notifications.${index}`);
        const reserved = await reserveIntake(deps, await prepareIntake(deps, tenant, request, open, `notifications.${index}`));
        outcomes.set(index, reserved.outcome);
        deps.metrics.intakeRequests.inc({ result: reserved.outcome.kind, priority: request.priority });
        if (reserved.enqueue) enqueues.push({ index, priority: request.priority, data: reserved.enqueue, again: reserved.outcome.kind === 'duplicate' });
        else if (reserved.outcome.kind === 'accepted') scheduled.push({ index, id: reserved.outcome.id });
      } catch (error) {
        const failure = classifyIntakeError(deps.metrics, error, undefined);
        results[index] = {
          index,
          httpStatus: failure.httpStatus,
          error: { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}) },
        };
      }
    }),
  );
  try {
    await deps.queues.enqueueFirstSteps(enqueues);
    await waitReplicated(deps, [...enqueues.map((e) => e.data.id), ...scheduled.map((s) => s.id)]);
  } catch (error) {
    const failure = classifyIntakeError(deps.metrics, error, undefined);
    // The records exist; a retry of these items re-adds their jobs (status still 'accepted') or finds them scheduled.
    for (const { index } of [...enqueues, ...scheduled]) {
      outcomes.delete(index);
      results[index] = { index, httpStatus: failure.httpStatus, error: { code: failure.code, message: failure.message } };
    }
  }
  for (const [index, outcome] of outcomes) {
    results[index] = {
      index,
      httpStatus: outcome.kind === 'accepted' ? 202 : 200,
      id: outcome.id,
      status: outcome.status,
      duplicate: outcome.kind === 'duplicate',
    };
  }
  return results;
}
