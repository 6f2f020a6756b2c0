import { advance } from './advance';
import { CONTINUE, done, type StepStage } from './stage';

/**
 * The recipient's opt-out, asked again at every step (one recorded while the step waited in a
 * cascade delay applies to this call): an opted-out channel is skipped without spending budget,
 * as a suppressed one is. Costs nothing for a required category (no `category` in the job), a
 * reconciliation (it settles a call already made), or a tenant with no opt-out recorded (the
 * per-process settings cache); otherwise one HMGET in the record's slot.
 */
export const optedOutStage: StepStage = {
  name: 'opted-out',
  async run(ctx, s) {
    const { data } = ctx;
    if (!s.consent || data.category === undefined || data.tenant === undefined || data.provider !== undefined) return CONTINUE;
    if (!(await s.consent.settings.tenant(data.tenant)).optOuts) return CONTINUE;
    if (!(await s.consent.optOuts.isOptedOut(data.rh, data.category, data.channel))) return CONTINUE;
    s.metrics.skips.inc({ channel: data.channel, reason: 'opted-out' });
    await advance(ctx, s, [{ channel: data.channel, reason: 'opted-out', at: s.now() }], 'skip');
    return done({ action: 'skipped', reason: 'opted-out', channel: data.channel });
  },
};
