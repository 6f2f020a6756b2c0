import { indexReceipt } from './receipt-index';
import { CONTINUE, done, type StepStage } from './stage';
import { releaseTicket, required } from './step-context';

/**
 * Records the call's outcome (finish-attempt-4.lua), tells the breaker, indexes the provider's
 * message id, and tells the hooks: a delivery ends the notification here, any other answer is
 * a failed attempt the next stages act on.
 */
export const finishAttemptStage: StepStage = {
  name: 'finish-attempt',
  async run(ctx, s) {
    const { data } = ctx;
    const result = required(ctx.result, 'the call result');
    const provider = required(ctx.ticket, 'the breaker ticket').provider;
    const finished = await s.scripts.finishAttempt({
      id: data.id,
      rh: data.rh,
      channel: data.channel,
      step: data.step,
      outcome: result.outcome,
      errorClass: result.errorClass,
      message: result.message,
      now: s.now(),
      durationMs: result.durationMs,
      // Only an answer that says the address is dead suppresses it (552 mailbox full, 413 too large: not the address).
      suppressionTtlSeconds: result.addressInvalid ? s.config.suppressionTtlSeconds : 0,
      // A dead push address is a subscription the push service dropped; elsewhere the address bounced.
      suppressionReason: data.channel === 'push' ? 'expired-subscription' : 'bounce',
      spent: result.sent,
      ...(result.providerMessageId ? { providerMessageId: result.providerMessageId } : {}),
    });
    await releaseTicket(ctx, result.outcome);
    ctx.recorded = finished.code === 'recorded';
    const called = { action: 'called', outcome: result.outcome, channel: data.channel } as const;
    if (finished.code !== 'recorded') return result.outcome === 'delivered' ? done(called) : CONTINUE;
    if (result.providerMessageId) await indexReceipt(ctx, s, provider, result.providerMessageId);
    const tenant = ctx.begun?.tenant;
    if (result.outcome === 'delivered') {
      const endedAt = s.now();
      await s.events.ended.emit({
        notificationId: data.id,
        step: data.step,
        priority: data.priority,
        status: 'delivered',
        calls: finished.calls || 1,
        acceptedAt: finished.acceptedAt,
        endedAt,
        ...(tenant ? { tenant } : {}),
        replay: false,
      });
      return done(called);
    }
    await s.events.attemptFailed.emit({
      notificationId: data.id,
      step: data.step,
      channel: data.channel,
      outcome: result.outcome,
      ...(tenant ? { tenant } : {}),
    });
    return CONTINUE;
  },
};
