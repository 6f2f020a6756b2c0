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
  /** A send's channels in cascade order: the script takes the first not suppressed or opted out. */
  candidates?: Channel[];
}

/**
 * Moves the record to its next step and adds that step's job (after `delayMs`); a run that lost
 * the race adds nothing. A step that would be due after the notification's expiresAt is due at
 * expiresAt instead: it then ends `expired` on time (begin-attempt) rather than late.
 */
export async function scheduleNextStep(ctx: StepContext, s: StepServices, next: NextStepRequest): Promise<boolean> {
  const expiresAt = ctx.data.expiresAt;
  const delayMs = expiresAt === undefined ? next.delayMs : Math.min(next.delayMs, Math.max(0, expiresAt - s.now()));
  const scheduled = await s.scripts.scheduleStep({
    id: ctx.data.id,
    fromStep: next.fromStep,
    channel: next.channel,
    kind: next.kind,
    skips: next.skips,
    status: delayMs > 0 ? 'retry-scheduled' : 'routing',
    ...(next.wait ? { wait: next.wait } : {}),
    ...(next.candidates ? { candidates: next.candidates, rh: ctx.data.rh, now: s.now(), ...(await optOutCategory(ctx, s)) } : {}),
  });
  if (scheduled.code !== 'scheduled') return false;
  for (const skip of scheduled.skipped) s.metrics.skips.inc(skip);
  s.coalesce();
  await s.queues.enqueueLaterStep(ctx.data.priority, stepData(ctx.data, next.fromStep + 1, scheduled.channel, next.provider), delayMs);
  return true;
}

/** The category whose opt-outs the schedule script reads: none for a required one, or a tenant with none recorded. */
async function optOutCategory(ctx: StepContext, s: StepServices): Promise<{ optOutCategory?: string }> {
  const { category, tenant } = ctx.data;
  if (!s.consent || category === undefined || tenant === undefined) return {};
  return (await s.consent.settings.tenant(tenant)).optOuts ? { optOutCategory: category } : {};
}
