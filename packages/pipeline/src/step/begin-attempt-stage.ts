import { EXPIRED_REASON } from '@notify/core';
import { releaseTicket } from './step-context';
import { advance } from './advance';
import { replayEnd } from './republish-end';
import { resume } from './resume';
import { CONTINUE, done, type StepStage } from './stage';

/**
 * Opens the attempt in the record (begin-attempt-4.lua), atomically with checking it may
 * happen; every answer but `proceed` ends the step here.
 */
export const beginAttemptStage: StepStage = {
  name: 'begin-attempt',
  async run(ctx, s) {
    const { data, run } = ctx;
    const ticket = ctx.ticket;
    const begin = await s.scripts.beginAttempt({
      id: data.id,
      rh: data.rh,
      step: data.step,
      channel: data.channel,
      now: s.now(),
      budget: s.config.budget,
      ...(ticket ? { provider: ticket.provider } : {}),
      ...run,
    });
    if (begin.code === 'proceed') {
      ctx.begun = { contentJson: begin.contentJson, addressesJson: begin.addressesJson, ...(begin.tenant ? { tenant: begin.tenant } : {}) };
      return CONTINUE;
    }
    await releaseTicket(ctx, 'not-called');
    switch (begin.code) {
      case 'terminal':
        s.metrics.duplicatesBlocked.inc({ stage: 'worker' });
        await replayEnd(ctx, s);
        return done({ action: 'ignored', reason: 'terminal' });
      case 'archived': // ended and archived: a late job of it (a delayed step, a batch copy, a stalled re-run)
        s.metrics.duplicatesBlocked.inc({ stage: 'worker' });
        return done({ action: 'ignored', reason: 'terminal' });
      case 'missing':
        s.logger.warn({ notificationId: data.id, step: data.step }, 'step job for a missing record (expired?)');
        return done({ action: 'ignored', reason: 'missing' });
      case 'suppressed':
        s.metrics.skips.inc({ channel: data.channel, reason: 'suppressed' });
        await advance(ctx, s, [{ channel: data.channel, reason: 'suppressed', at: s.now() }], 'skip');
        return done({ action: 'skipped', reason: 'suppressed', channel: data.channel });
      case 'busy': // another job (a batch and a re-added single job) holds this step in flight: it finishes it
        s.metrics.duplicatesBlocked.inc({ stage: 'worker' });
        return done({ action: 'ignored', reason: 'busy' });
      case 'stale':
        s.metrics.duplicatesBlocked.inc({ stage: 'worker' });
        await resume(ctx, s);
        return done({ action: 'ignored', reason: 'stale' });
      case 'expired': // past its expiresAt: no call opened; it ends here, and the terminal hook tells metrics and webhooks
        return { kind: 'end', status: 'expired', reason: EXPIRED_REASON };
      case 'crashed': // the worker died mid-call: the step is now unknown / worker-lost
      case 'budget':
        await resume(ctx, s);
        return done({ action: 'resumed' });
    }
  },
};
