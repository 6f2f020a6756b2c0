import { providerIdempotencyKey } from '@notify/core';
import { providerAddress } from '@notify/providers';
import { CONTINUE, type StepStage } from './stage';
import { required } from './step-context';

/** The one external call of the step, under the notification's idempotency key. */
export const providerCallStage: StepStage = {
  name: 'provider-call',
  async run(ctx, s) {
    const { data } = ctx;
    const { adapter, to, message } = required(ctx.call, 'the rendered call');
    s.metrics.inFlight.inc({ channel: data.channel });
    try {
      ctx.result = await adapter.send({
        notificationId: data.id,
        idempotencyKey: providerIdempotencyKey(data.id),
        to: providerAddress(to),
        message,
        priority: data.priority,
      });
    } finally {
      s.metrics.inFlight.dec({ channel: data.channel });
    }
    s.metrics.attempts.inc({ channel: data.channel, outcome: ctx.result.outcome });
    s.metrics.callDuration.observe({ channel: data.channel, outcome: ctx.result.outcome }, ctx.result.durationMs / 1000);
    return CONTINUE;
  },
};
