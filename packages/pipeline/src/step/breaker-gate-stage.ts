import type { Addresses } from '@notify/core';
import { advance } from './advance';
import { CONTINUE, done, type StepStage } from './stage';
import type { StepContext, StepServices } from './step-context';

/** The breaker's permission for the call: none (every provider of the channel open) skips the channel. */
export const breakerGateStage: StepStage = {
  name: 'breaker-gate',
  async run(ctx, s) {
    const { data } = ctx;
    const ticket = await s.gate.acquire(data.channel, data.provider, await carriesFor(ctx, s));
    if (ticket) {
      ctx.ticket = ticket;
      return CONTINUE;
    }
    s.metrics.skips.inc({ channel: data.channel, reason: 'breaker-open' });
    await advance(ctx, s, [{ channel: data.channel, reason: 'breaker-open', at: s.now() }], 'skip');
    return done({ action: 'skipped', reason: 'breaker-open', channel: data.channel });
  },
};

/**
 * On a channel whose providers differ in the addresses they carry (Web Push and FCM on push),
 * which providers can carry this notification's address; undefined elsewhere (no read spent).
 */
async function carriesFor(ctx: StepContext, s: StepServices): Promise<((provider: string) => boolean) | undefined> {
  const { data } = ctx;
  if (data.provider !== undefined || !s.addressRouting?.channels.has(data.channel)) return undefined;
  const raw = await s.redis.hget(ctx.record.key, 'addresses');
  const address = raw ? (JSON.parse(raw) as Addresses)[data.channel] : undefined;
  return typeof address === 'string' ? s.addressRouting.filterFor(data.channel, address) : undefined;
}
