import { NotifyError, type Channel } from '@notify/core';
import type { StepJobData } from '../job-data';
import type { IntakeDeps, IntakeResult, PreparedIntake } from './intake-types';

/**
 * The one Lua call that reserves the idempotency key and writes the record; what it answers,
 * and the first step job to add (a duplicate still `accepted`, never started, re-adds it).
 */
export async function reserveIntake(
  deps: Pick<IntakeDeps, 'scripts' | 'metrics'>,
  { request, args, job: extra }: PreparedIntake,
): Promise<{ outcome: IntakeResult; enqueue?: StepJobData }> {
  const reply = await deps.scripts.intake(args);
  const job = (c: Channel): StepJobData => ({
    id: args.id,
    rh: args.rh,
    priority: request.priority,
    step: 1,
    channel: c,
    // Always the tenant: a lane's fair share tags and batches by it.
    tenant: args.tenant,
    ...(args.expiresAt !== undefined ? { expiresAt: args.expiresAt } : {}),
    ...(args.quiet ? { quiet: args.quiet } : {}),
    ...extra,
  });
  switch (reply.code) {
    case 'created':
      // Scheduled: no job now; the releaser adds it when due.
      if (reply.status === 'scheduled') return { outcome: { kind: 'accepted', id: args.id, status: 'scheduled' } };
      for (const skip of reply.skipped) deps.metrics.skips.inc(skip);
      return { outcome: { kind: 'accepted', id: args.id, status: 'accepted' }, enqueue: job(reply.firstChannel) };
    case 'duplicate': {
      deps.metrics.duplicatesBlocked.inc({ stage: 'intake' });
      const outcome: IntakeResult = { kind: 'duplicate', id: args.id, status: reply.status };
      return reply.firstChannel ? { outcome, enqueue: job(reply.firstChannel) } : { outcome };
    }
    case 'conflict':
      throw new NotifyError(
        'IDEMPOTENCY_CONFLICT',
        `event '${request.eventId}' for recipient '${request.recipient.id}' was accepted before with a different payload (notification ${args.id})`,
      );
  }
}
