import { isTerminal, type Channel, type NotificationStatus } from '@notify/core';
import { recordAttempts, type RecordFields } from '../notification-record';
import { advance } from './advance';
import { reconcileProviderOf, stepData } from './next-step';
import type { StepContext, StepServices } from './step-context';

/** A re-run found the step already handled: compute the next move from the record alone. */
export async function resume(ctx: StepContext, s: StepServices): Promise<void> {
  s.coalesce();
  const { data } = ctx;
  const fields = (await s.redis.hgetall(ctx.record.key)) as RecordFields;
  if (!fields.status || isTerminal(fields.status as NotificationStatus)) return;
  const step = Number(fields.step);
  const channel = fields.chan as Channel;
  const current = stepData(data, step, channel, fields.kind === 'reconcile' ? reconcileProviderOf(fields, channel) : undefined);
  const attempt = recordAttempts(fields).find((a) => a.step === step);
  if (attempt?.outcome !== undefined) {
    const after = attempt.spent === false && attempt.outcome !== 'processing-error' ? 'not-sent' : attempt.outcome;
    await advance({ ...ctx, data: current }, s, [], after, fields);
  } else {
    // The current step has not run (or is running elsewhere): make sure its job exists.
    await s.queues.enqueueStep(data.priority, current);
  }
}
