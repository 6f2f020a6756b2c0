import { notificationRequestSchema, parseOrThrow, type NotificationRequest } from '@notify/core';
import type { StepJobData } from '../job-data';
import { admitBatch, type ParsedItem } from './intake-limits';
import { classifyIntakeError } from './intake-errors';
import { waitReplicated } from './intake-replication';
import type { BatchIntake, BatchItemResult, IntakeDeps, IntakeResult } from './intake-types';
import { prepareIntake } from './prepare-intake';
import { reserveIntake } from './reserve-intake';

const failed = (index: number, failure: { httpStatus: number; code: string; message: string; details?: { field: string; reason: string }[] | undefined }) => ({
  index,
  httpStatus: failure.httpStatus,
  error: { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}) },
});

/**
 * Up to 1,000 notifications: per-item results; the enqueues go out as one bulk per lane. The
 * valid items take the tenant's limits in one call: the first ones it admits go on, the rest are
 * answered 429 each (nothing half-accepted: an item is accepted whole or refused whole).
 */
export async function acceptBatch(deps: IntakeDeps, tenant: string, items: unknown[]): Promise<BatchIntake> {
  const results: BatchItemResult[] = new Array<BatchItemResult>(items.length);
  const parsed: ParsedItem[] = [];
  items.forEach((item, index) => {
    try {
      parsed.push({ index, request: parseOrThrow(notificationRequestSchema, item, `notifications.${index}`) });
    } catch (error) {
      results[index] = failed(index, classifyIntakeError(deps.metrics, error, undefined));
    }
  });
  const open = await deps.gate.openChannels().catch((e: unknown) => {
    throw classifyIntakeError(deps.metrics, e, undefined);
  });
  const { take, admitted, answered, retryAfterSeconds } = await admitBatch(deps, tenant, parsed).catch((e: unknown) => {
    throw classifyIntakeError(deps.metrics, e, undefined);
  });
  for (const result of answered) results[result.index] = result;
  const enqueues: { index: number; priority: NotificationRequest['priority']; data: StepJobData; again: boolean }[] = [];
  const outcomes = new Map<number, IntakeResult>();
  // Accepted with a sendAt ahead: no job now, but their records wait for the replicas too.
  const scheduled: { index: number; id: string }[] = [];
  let created = 0;
  await Promise.all(
    admitted.map(async ({ index, request }) => {
      try {
        const reserved = await reserveIntake(deps, await prepareIntake(deps, tenant, request, open, `notifications.${index}`));
        outcomes.set(index, reserved.outcome);
        if (reserved.outcome.kind === 'accepted') created += 1;
        deps.metrics.intakeRequests.inc({ result: reserved.outcome.kind, priority: request.priority });
        if (reserved.enqueue) enqueues.push({ index, priority: request.priority, data: reserved.enqueue, again: reserved.outcome.kind === 'duplicate' });
        else if (reserved.outcome.kind === 'accepted') scheduled.push({ index, id: reserved.outcome.id });
      } catch (error) {
        results[index] = failed(index, classifyIntakeError(deps.metrics, error, undefined));
      }
    }),
  );
  // The quota counts notifications accepted: admitted items that were not created give theirs back.
  if (take) await deps.limiter?.refund(take, take.admitted - created);
  deps.tenantMetrics?.accepted(tenant, created);
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
  return { results, ...(take ? { limit: take.state } : {}), ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}
