import type { StepContext, StepServices } from './step-context';
import type { EndStatus, Skip } from './step-types';

export interface EndRequest {
  status: EndStatus;
  reason: string;
  /** The record's current step: only it may end the notification. */
  fromStep: number;
  skips: Skip[];
  /** The record's calls and tenant, read by the caller anyway. */
  calls: number;
  tenant?: string;
}

/** Ends the notification without a delivery and, if this run ended it, tells the terminal hook. */
export async function endNotification(ctx: StepContext, s: StepServices, end: EndRequest): Promise<boolean> {
  const { data } = ctx;
  const ended = await s.scripts.finishNotification({
    id: data.id,
    fromStep: end.fromStep,
    status: end.status,
    reason: end.reason,
    now: s.now(),
    skips: end.skips,
  });
  if (ended.code !== 'ended') return false;
  await s.events.ended.emit({
    notificationId: data.id,
    step: data.step,
    priority: data.priority,
    status: end.status,
    calls: end.calls,
    endedAt: s.now(),
    ...(end.tenant ? { tenant: end.tenant } : {}),
    replay: false,
  });
  return true;
}

/**
 * Ends the notification, reading what the terminal hook needs: at `fromStep`, or at the
 * record's current step (a step that has just recorded its call).
 */
export async function endReadingRecord(ctx: StepContext, s: StepServices, status: EndRequest['status'], reason: string, fromStep?: number): Promise<boolean> {
  const [step, calls, tenant] = await s.redis.hmget(ctx.record.key, 'step', 'calls', 'tenant');
  const from = fromStep ?? Number(step ?? ctx.data.step);
  return endNotification(ctx, s, { status, reason, fromStep: from, skips: [], calls: Number(calls ?? 0), ...(tenant ? { tenant } : {}) });
}
