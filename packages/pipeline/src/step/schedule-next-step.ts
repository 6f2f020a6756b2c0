import type { Channel, WaitRecord } from '@notify/core';
import { stepData } from './next-step';
import type { StepContext, StepServices } from './step-context';
import type { Skip } from './step-types';

export interface NextStepRequest {
  /** The record's current step: only it may move the notification on. */
  fromStep: number;
  channel: Channel;
  kind: 'send' | 'reconcile';
  delayMs: number;
  /** A reconciliation's provider (the one holding the key). */
  provider: string | undefined;
  skips: Skip[];
  /** A stage's defer: why the step waits and until when (the record's `waits`). */
  wait?: WaitRecord;
}

/** Moves the record to its next step and adds that step's job (after `delayMs`); a run that lost the race adds nothing. */
export async function scheduleNextStep(ctx: StepContext, s: StepServices, next: NextStepRequest): Promise<boolean> {
  const scheduled = await s.scripts.scheduleStep({
    id: ctx.data.id,
    fromStep: next.fromStep,
    channel: next.channel,
    kind: next.kind,
    skips: next.skips,
    status: next.delayMs > 0 ? 'retry-scheduled' : 'routing',
    ...(next.wait ? { wait: next.wait } : {}),
  });
  if (scheduled.code !== 'scheduled') return false;
  s.coalesce();
  await s.queues.enqueueLaterStep(ctx.data.priority, stepData(ctx.data, next.fromStep + 1, next.channel, next.provider), next.delayMs);
  return true;
}
