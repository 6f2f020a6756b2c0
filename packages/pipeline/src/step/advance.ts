import type { RecordFields } from '../notification-record';
import { decideCascade } from './cascade-decision';
import { endNotification } from './end-notification';
import { scheduleNextStep } from './schedule-next-step';
import type { StepContext, StepServices } from './step-context';
import type { After, Skip } from './step-types';

/**
 * Chooses what comes after the step `ctx.data` ran (the cascade rule, cascade-decision.ts) and
 * does it: ends the notification, or schedules its next step. `known`: the record, when read already.
 */
export async function advance(ctx: StepContext, s: StepServices, newSkips: Skip[], after: After, known?: RecordFields): Promise<void> {
  s.coalesce();
  const fields = known ?? (await s.redis.hgetall(ctx.record.key));
  if (!fields.status) return;
  const open = new Set(await s.gate.openChannels());
  for (const skip of newSkips) if (skip.reason === 'breaker-open') open.add(skip.channel);
  const { move, skips, found } = decideCascade(fields, newSkips, after, open, s.config, s.now());
  for (const skip of found) s.metrics.skips.inc({ channel: skip.channel, reason: skip.reason });
  const step = Number(fields.step);
  if (move.kind === 'end') {
    const tenant = fields.tenant;
    await endNotification(ctx, s, {
      status: move.status,
      reason: move.reason,
      fromStep: step,
      skips,
      calls: Number(fields.calls ?? 0),
      ...(tenant ? { tenant } : {}),
    });
  } else if (move.kind === 'schedule') {
    const next = { fromStep: step, channel: move.channel, kind: move.stepKind, delayMs: move.delayMs, provider: move.provider, skips };
    await scheduleNextStep(ctx, s, move.candidates ? { ...next, candidates: move.candidates } : next);
  }
}
