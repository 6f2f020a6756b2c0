import { createTransport, type SendMailOptions } from 'nodemailer';
import { unsubscribeHeaders, type Channel } from '@notify/core';
import { elapsedMs, type ProviderAdapter, type ProviderCapabilities, type SendRequest, type SendResult } from '../adapter';
import { fromAddress, parseSmtpUrl, smtpProviderConfigSchema, type SmtpProviderConfig, type SmtpProviderConfigInput } from './config';
import { classifySmtpFailure } from './smtp-outcome';

const CAPABILITIES: ProviderCapabilities = Object.freeze({ idempotencyKey: false, lookup: false, receipts: false });

/** The mail option that carries a send's progress to the stream plugin (nodemailer copies unknown keys into mail.data). */
const PROGRESS_KEY = 'notifySendProgress';

interface SendProgress {
  /** The whole message went to the socket, and DATA's terminating dot with it. */
  dataComplete: boolean;
}

/**
 * The Message-ID of a notification's e-mail: the same for every call of one notification, so a
 * downstream system (or the recipient's mailbox) can de-duplicate a re-send.
 */
export function notificationMessageId(notificationId: string, domain: string): string {
  const local = /^[A-Za-z0-9._-]{1,200}$/.test(notificationId) ? notificationId : Buffer.from(notificationId, 'utf8').toString('base64url');
  return `<notify-${local}@${domain}>`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The HTML part: the text rendering escaped, paragraphs on blank lines, line breaks kept. */
export function textToHtml(text: string, subject: string): string {
  const escape = (value: string) => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escape(paragraph).replace(/\n/g, '<br>\n')}</p>`);
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escape(subject)}</title></head>\n<body>\n${paragraphs.join('\n')}\n</body></html>\n`;
}

/** The server's queue id in its final reply ("250 2.0.0 Ok: queued as 4FzK2x1Qz"), or undefined. */
export function queueIdOf(response: string | undefined): string | undefined {
  return response ? /queued as\s+<?([A-Za-z0-9._@:+=/-]{1,120})>?/i.exec(response)?.[1] : undefined;
}

/**
 * E-mail over SMTP with nodemailer's pooled transport (STARTTLS when offered or required, or
 * implicit TLS with smtps://; auth from the URL). One message per call, multipart text + HTML,
 * UTF-8, a deterministic Message-ID. SMTP has no idempotency key and no lookup: a send whose
 * final reply never came is unknown and cannot be reconciled (see README: `unconfirmed`).
 */
export class SmtpAdapter implements ProviderAdapter {
  readonly kind = 'smtp' as const;
  readonly name: string;
  readonly channel: Channel = 'email';
  readonly capabilities = CAPABILITIES;
  readonly #transport: ReturnType<typeof createTransport>;
  readonly #from: string;
  readonly #messageIdDomain: string;

  constructor(config: SmtpProviderConfigInput | SmtpProviderConfig) {
    const c = smtpProviderConfigSchema.parse(config);
    const endpoint = parseSmtpUrl(c.url);
    this.name = c.name;
    this.#from = c.from;
    this.#messageIdDomain = c.messageIdDomain ?? (fromAddress(c.from) as string).split('@').pop()!;
    this.#transport = createTransport({
      pool: true,
      host: endpoint.host,
      port: endpoint.port,
      secure: endpoint.secure,
      requireTLS: !endpoint.secure && c.requireTls,
      ...(endpoint.auth ? { auth: endpoint.auth } : {}),
      tls: {
        rejectUnauthorized: c.tls.rejectUnauthorized,
        ...(c.tls.ca ? { ca: c.tls.ca } : {}),
        ...(c.tls.servername ? { servername: c.tls.servername } : {}),
      },
      maxConnections: c.pool.maxConnections,
      maxMessages: c.pool.maxMessages,
      connectionTimeout: c.connectionTimeoutMs,
      greetingTimeout: c.greetingTimeoutMs,
      socketTimeout: c.socketTimeoutMs,
      // Nodemailer logs recipients and replies: the platform logs outcomes, never addresses.
      logger: false,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    // The last stage of the message stream: its end is the moment nodemailer's data stream
    // ends too and writes the terminating dot (connection.send pipes this stream into it).
    this.#transport.use('stream', (mail, done) => {
      const progress = (mail.data as Record<string, unknown>)[PROGRESS_KEY] as SendProgress | undefined;
      if (progress) {
        mail.message.processFunc((input) => {
          input.once('end', () => {
            progress.dataComplete = true;
          });
          return input;
        });
      }
      done();
    });
    // A pooled connection that dies while idle is reported here; the next send opens another.
    this.#transport.on('error', () => undefined);
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (request.message.channel !== 'email') throw new Error(`provider ${this.name} sends email, not ${request.message.channel}`);
    if (typeof request.to !== 'string') throw new Error(`provider ${this.name} takes an e-mail address`);
    const { subject, text } = request.message.email;
    const messageId = notificationMessageId(request.notificationId, this.#messageIdDomain);
    const progress: SendProgress = { dataComplete: false };
    const started = performance.now();
    try {
      const info: unknown = await this.#transport.sendMail({
        from: this.#from,
        to: request.to,
        subject,
        text,
        html: textToHtml(text, subject),
        messageId,
        // X-Priority / Importance for urgent notifications; reminders go out as normal mail.
        priority: request.priority === 'urgent' ? 'high' : 'normal',
        headers: unsubscribeHeaders(request.message.email),
        [PROGRESS_KEY]: progress,
      } as SendMailOptions);
      const reply = (info as { response?: unknown } | undefined)?.response;
      const response = typeof reply === 'string' ? reply : undefined;
      return { outcome: 'delivered', durationMs: elapsedMs(started), sent: true, providerMessageId: queueIdOf(response) ?? messageId };
    } catch (error) {
      return classifySmtpFailure(error, progress.dataComplete, elapsedMs(started));
    }
  }

  async close(): Promise<void> {
    this.#transport.close();
    await Promise.resolve();
  }
}
