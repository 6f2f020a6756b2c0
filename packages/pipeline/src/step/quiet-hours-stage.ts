import { quietRelease } from '@notify/core';
import { CONTINUE, type StepStage } from './stage';

/**
 * A step that would start inside the recipient's quiet hours waits until the window ends plus
 * this notification's share of the spread (QUIET_HOURS_SPREAD_SECONDS). The rule travels in the
 * job (decided at intake), so a notification without quiet hours pays one property check and
 * no Redis read; one with them pays an `Intl` format of the clock.
 */
export const quietHoursStage: StepStage = {
  name: 'quiet-hours',
  async run(ctx, s) {
    const { data } = ctx;
    if (!data.quiet) return CONTINUE;
    const untilMs = quietRelease(s.now(), data.quiet, s.quietHoursSpreadMs, data.id);
    if (untilMs === undefined) return CONTINUE;
    s.metrics.quietHoursDeferrals.inc({ channel: data.channel, priority: data.priority });
    return { kind: 'defer', untilMs, reason: 'quiet-hours' };
  },
};
