import type { StepContext, StepServices } from './step-context';

const ENDED = new Set(['delivered', 'failed', 'unconfirmed', 'expired', 'opted-out']);

/**
 * A re-run of the job that ended the notification (its worker died after the status was
 * written and before the end was told) tells the terminal hook again, as a replay: publishers
 * hear it (a webhook event's id comes from (notification, type, step): a receiver sees it
 * once), counters do not. A stale job of another step tells nothing.
 */
export async function replayEnd(ctx: StepContext, s: StepServices): Promise<void> {
  if (!s.events.ended.hasReplaySubscribers) return;
  const [status, step, tenant] = await s.redis.hmget(ctx.record.key, 'status', 'step', 'tenant');
  if (Number(step) !== ctx.data.step || !status || !ENDED.has(status)) return;
  await s.events.ended.emit({
    notificationId: ctx.data.id,
    step: ctx.data.step,
    priority: ctx.data.priority,
    status: status as 'delivered' | 'failed' | 'unconfirmed' | 'expired' | 'opted-out',
    calls: 0,
    endedAt: s.now(),
    ...(tenant ? { tenant } : {}),
    replay: true,
  });
}
