import type { Channel } from '../channels';
import type { NotificationContent } from '../schemas';
import { formatEmail, type EmailMessage } from './email';
import { formatPush, type PushMessage } from './push';
import { formatSms, type SmsMessage } from './sms';

export type RenderedMessage = { channel: 'push'; push: PushMessage } | { channel: 'sms'; sms: SmsMessage } | { channel: 'email'; email: EmailMessage };

export interface RenderOptions {
  smsMaxSegments: number;
}

/** Per-channel formatting of one notification's content, honouring per-channel overrides. */
export function renderForChannel(channel: Channel, content: NotificationContent, options: RenderOptions): RenderedMessage {
  const overrides = content.overrides ?? {};
  switch (channel) {
    case 'push': {
      const o = overrides.push ?? {};
      const payload = { title: o.title ?? content.title, body: o.body ?? content.body, ...(o.data ? { data: o.data } : {}) };
      return { channel, push: formatPush(payload) };
    }
    case 'sms':
      return { channel, sms: formatSms(overrides.sms?.body ?? `${content.title}: ${content.body}`, options.smsMaxSegments) };
    case 'email':
      return { channel, email: formatEmail(overrides.email?.subject ?? content.title, overrides.email?.body ?? content.body) };
  }
}
