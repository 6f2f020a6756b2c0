import { advance } from './advance';
import type { StepContext, StepServices } from './step-context';
import type { StepResult } from './step-types';

/** A message that cannot be rendered for this channel: recorded as such, no call spent, the cascade moves on. */
export async function processingError(ctx: StepContext, s: StepServices, error: unknown): Promise<StepResult> {
  const { data } = ctx;
  const reason = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 300);
  s.metrics.skips.inc({ channel: data.channel, reason: 'processing-error' });
  s.logger.warn({ notificationId: data.id, step: data.step, channel: data.channel, reason }, 'message cannot be rendered for this channel; cascading');
  const finished = await s.scripts.finishAttempt({
    id: data.id,
    rh: data.rh,
    channel: data.channel,
    step: data.step,
    outcome: 'processing-error',
    errorClass: 'render-failed',
    message: reason,
    now: s.now(),
    durationMs: 0,
    suppressionTtlSeconds: 0,
    spent: false,
  });
  if (finished.code === 'recorded') await advance(ctx, s, [], 'processing-error');
  return { action: 'processing-error', channel: data.channel, reason };
}
