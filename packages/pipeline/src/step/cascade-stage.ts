import { advance } from './advance';
import { done, type StepStage } from './stage';
import { required } from './step-context';

/** A call that did not deliver: the cascade decides the next step (a call that never left spends nothing). */
export const cascadeStage: StepStage = {
  name: 'cascade',
  async run(ctx, s) {
    const result = required(ctx.result, 'the call result');
    if (result.outcome !== 'delivered') await advance(ctx, s, [], result.sent ? result.outcome : 'not-sent');
    return done({ action: 'called', outcome: result.outcome, channel: ctx.data.channel });
  },
};
