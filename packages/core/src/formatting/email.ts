import { EMAIL_MESSAGE_LIMIT_BYTES } from '../limits';

export interface EmailMessage {
  subject: string;
  text: string;
  /** The one-click unsubscribe link (an e-mail of a non-required category); see unsubscribeHeaders. */
  unsubscribeUrl?: string;
}

/**
 * RFC 2369's List-Unsubscribe and RFC 8058's one-click marker: a mailbox provider POSTs
 * `List-Unsubscribe=One-Click` to the URL. Empty without a link.
 */
export function unsubscribeHeaders(message: EmailMessage): Record<string, string> {
  if (!message.unsubscribeUrl) return {};
  return { 'List-Unsubscribe': `<${message.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Bytes of an e-mail as it travels to the provider (the JSON of subject and text). */
export function emailBytes(message: EmailMessage): number {
  return Buffer.byteLength(JSON.stringify(message), 'utf8');
}

/** The message as sent, before the size check (intake validation weighs this same object). */
export function buildEmail(subject: string, body: string): EmailMessage {
  return {
    subject: subject
      .replace(/[\r\n]+/g, ' ')
      .trim()
      .slice(0, 200),
    text: body,
  };
}

/**
 * E-mail: a one-line subject (header injection is impossible once newlines are folded) and a
 * text body. A message over EMAIL_MESSAGE_LIMIT_BYTES cannot be sent and is refused (RangeError).
 */
export function formatEmail(subject: string, body: string): EmailMessage {
  const message = buildEmail(subject, body);
  const bytes = emailBytes(message);
  if (bytes > EMAIL_MESSAGE_LIMIT_BYTES) throw new RangeError(`e-mail of ${bytes} bytes exceeds ${EMAIL_MESSAGE_LIMIT_BYTES}`);
  return message;
}
