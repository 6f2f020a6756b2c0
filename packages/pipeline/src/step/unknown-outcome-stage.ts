import { endReadingRecord } from './end-notification';
import { CONTINUE, done, type StepStage } from './stage';
import { required } from './step-context';

/**
 * An unknown outcome on a provider that takes no idempotency key and offers no lookup, on a
 * channel whose policy is `settle`: a re-send could deliver twice and nothing can be asked, so
 * the notification ends `unconfirmed` now (said as such).
 */
export const unknownOutcomeStage: StepStage = {
  name: 'unknown-outcome-policy',
  async run(ctx, s) {
    const { adapter } = required(ctx.call, 'the rendered call');
    const result = required(ctx.result, 'the call result');
    const channel = ctx.data.channel;
    if (ctx.recorded !== true || result.outcome !== 'unknown' || adapter.capabilities.idempotencyKey || adapter.capabilities.lookup) return CONTINUE;
    if (s.unknownPolicy(channel) !== 'settle') return CONTINUE;
    const reason = `unknown outcome on ${adapter.name}, which takes no idempotency key: not re-sent (UNKNOWN_OUTCOME_${channel.toUpperCase()}=settle)`;
    await endReadingRecord(ctx, s, 'unconfirmed', reason);
    return done({ action: 'called', outcome: result.outcome, channel });
  },
};
