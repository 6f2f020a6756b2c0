import { pendingIntakeKey } from '@notify/core';
import { scheduleNextStep } from './schedule-next-step';
import type { StepContext, StepServices } from './step-context';
import type { StepResult } from './step-types';

/**
 * A stage's `defer`: the step runs again at `untilMs` on the same channel, as a fresh step (its
 * job id is new, so the running job's own id does not swallow the add), the way a step waiting
 * out an outage re-checks. Nothing was called, so nothing is spent. The record keeps the wait
 * (why, from when, until when): the status shows it.
 */
export async function deferStep(ctx: StepContext, s: StepServices, untilMs: number, reason: string): Promise<StepResult> {
  const { data } = ctx;
  const kind = (await s.redis.hget(ctx.record.key, 'kind')) === 'reconcile' ? 'reconcile' : 'send';
  const scheduled = await scheduleNextStep(ctx, s, {
    fromStep: data.step,
    channel: data.channel,
    kind,
    delayMs: Math.max(1, untilMs - s.now()),
    provider: data.provider,
    skips: [],
    wait: { reason, at: s.now(), until: untilMs },
  });
  // A run that lost the race (a stale or re-run job) moved nothing: another run owns the step.
  if (!scheduled) return { action: 'ignored', reason: 'stale' };
  // The wait is progress: the intake sweeper looks again only when it is over (no re-add while it waits).
  await s.redis.zadd(pendingIntakeKey(ctx.record.partition), 'XX', untilMs, data.id);
  return { action: 'deferred', untilMs, reason };
}
