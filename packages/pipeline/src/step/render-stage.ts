import { renderForChannel, type Addresses, type NotificationContent, type RenderedMessage } from '@notify/core';
import { processingError } from './processing-error';
import { CONTINUE, done, type StepStage } from './stage';
import { releaseTicket, required, type StepContext, type StepServices } from './step-context';

/** The message for this channel, its address and the provider's adapter; a record that cannot render is a processing error. */
export const renderStage: StepStage = {
  name: 'render',
  async run(ctx, s) {
    const begun = required(ctx.begun, 'the attempt');
    const ticket = required(ctx.ticket, 'the breaker ticket');
    try {
      const content = JSON.parse(begun.contentJson) as NotificationContent;
      const addresses = JSON.parse(begun.addressesJson) as Addresses;
      const to = addresses[ctx.data.channel] as string;
      const message = withUnsubscribe(ctx, s, renderForChannel(ctx.data.channel, content, { smsMaxSegments: s.config.smsMaxSegments }));
      ctx.call = { adapter: s.providers.get(ticket.provider), to, message };
      return CONTINUE;
    } catch (error) {
      // Deterministic: the same record never renders on this channel. Nothing was called.
      await releaseTicket(ctx, 'not-called');
      return done(await processingError(ctx, s, error));
    }
  },
};

/** An e-mail of a non-required category carries its one-click unsubscribe link (RFC 8058; docs/preferences.md). */
function withUnsubscribe(ctx: StepContext, s: StepServices, message: RenderedMessage): RenderedMessage {
  const { category, tenant, rh, channel } = ctx.data;
  const link = s.consent?.unsubscribeUrl;
  if (message.channel !== 'email' || !link || category === undefined || tenant === undefined) return message;
  return { channel: 'email', email: { ...message.email, unsubscribeUrl: link({ tenant, rh, category, channel }) } };
}
