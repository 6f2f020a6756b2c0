import { notificationRequestSchema, parseOrThrow, type NotificationRequest } from '@notify/core';
import { acceptBatch } from './intake/batch-intake';
import { classifyIntakeError } from './intake/intake-errors';
import { waitReplicated } from './intake/intake-replication';
import { admitOne } from './intake/intake-limits';
import type { BatchIntake, IntakeAnswer, IntakeDeps } from './intake/intake-types';
import { prepareIntake } from './intake/prepare-intake';
import type { LimitTake } from './tenant-limits/tenant-limiter';
import { reserveIntake } from './intake/reserve-intake';

export type { BatchIntake, BatchItemResult, IntakeAnswer, IntakeConfig, IntakeDeps, IntakeResult } from './intake/intake-types';

/**
 * Accepting a notification = one Lua call that reserves the idempotency key and writes the
 * record, then one idempotent enqueue of the first step. The 202 is sent only after both, so
 * a 202 means the job is in Redis; a client retry after a crash in between finds the record
 * ('accepted', never started) and re-adds the same job id, which BullMQ ignores if it exists.
 * Its steps, one file each under intake/: the recipient's addresses, the plan and the first
 * channel (prepare-intake), the reservation (reserve-intake), the replicas' WAIT, the answer
 * to a failure (intake-errors), the tenant's limits (intake-limits), and the batch form.
 */
export class IntakeService {
  constructor(private readonly deps: IntakeDeps) {}

  /** PARTITIONS: what a lookup by id needs to find the record (the id names its partition). */
  get partitions(): number {
    return this.deps.queues.partitions;
  }

  async accept(tenant: string, body: unknown): Promise<IntakeAnswer> {
    const { deps } = this;
    let priority: NotificationRequest['priority'] | undefined;
    let take: LimitTake | undefined;
    let created = false;
    // The unit the take admitted is kept (its record written) or given back, once.
    let unitSettled = false;
    try {
      const request = parseOrThrow(notificationRequestSchema, body);
      priority = request.priority;
      const admission = await admitOne(deps, tenant, request);
      take = admission.take;
      const limit = take ? { limit: take.state } : {};
      if (admission.earlier) {
        deps.metrics.intakeRequests.inc({ result: 'duplicate', priority: request.priority });
        return { ...admission.earlier, ...limit };
      }
      const result = await reserveIntake(deps, await prepareIntake(deps, tenant, request, await deps.gate.openChannels()));
      created = result.outcome.kind === 'accepted';
      unitSettled = true;
      // The quota counts notifications accepted: a repeat gives its unit back.
      if (take && !created) await deps.limiter?.refund(take, 1);
      if (result.enqueue) {
        if (result.outcome.kind === 'accepted') await deps.queues.enqueueFirstStep(request.priority, result.enqueue);
        else await deps.queues.enqueueStep(request.priority, result.enqueue);
        await waitReplicated(deps, [result.enqueue.id]);
      } else if (result.outcome.status === 'scheduled') {
        await waitReplicated(deps, [result.outcome.id]);
      }
      deps.metrics.intakeRequests.inc({ result: result.outcome.kind, priority: request.priority });
      if (created) deps.tenantMetrics?.accepted(tenant);
      return { ...result.outcome, ...limit };
    } catch (error) {
      // Refused before its record was written: the unit it took goes back (a written one stays,
      // its retry being a duplicate that gives its own back).
      if (take && take.admitted > 0 && !unitSettled) await deps.limiter?.refund(take, 1);
      throw classifyIntakeError(deps.metrics, error, priority);
    }
  }

  /** Up to 1,000 notifications: per-item results; the enqueues go out as one bulk per lane. */
  acceptBatch(tenant: string, items: unknown[]): Promise<BatchIntake> {
    return acceptBatch(this.deps, tenant, items);
  }
}
