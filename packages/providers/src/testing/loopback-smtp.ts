import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { SmtpProviderConfigInput } from '../smtp/config';

export interface ReceivedMail {
  raw: Buffer;
  session: SMTPServerSession;
  rcpt: string[];
  parsed: ParsedMail;
  /** False when the peer took the data and never answered it. */
  answered: boolean;
}

/** The reply after the data: 250 with `reply` (default: a queue id), an error carrying its `responseCode`, or none ever. */
export type SmtpAnswer = { reply?: string } | Error | 'stall';

export interface LoopbackSmtpOptions {
  user: string;
  password: string;
  /** A certificate: STARTTLS is offered with it, or spoken from the first byte with `secure`. */
  tls?: { key: string; cert: string; secure?: boolean };
  /** Replaces the answer at RCPT TO (default: by the local part, see LoopbackSmtp). The call is counted either way. */
  onRcptTo?: SMTPServerOptions['onRcptTo'];
  /** Replaces the answer after the data (default: by the local part, see LoopbackSmtp). */
  answer?: (mail: ReceivedMail, firstOfMessageId: boolean) => SmtpAnswer;
}

export function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

/** The default answers, picked by the first recipient's local part. */
function answerByLocalPart(mail: ReceivedMail, firstOfMessageId: boolean): SmtpAnswer {
  const local = mail.rcpt[0]?.split('@')[0] ?? '';
  if (local.startsWith('stallonce') ? firstOfMessageId : local.startsWith('stall')) return 'stall';
  if (local.startsWith('full')) return smtpError(552, '5.2.2 Mailbox full');
  return {};
}

/**
 * An SMTP peer on loopback (the `smtp-server` package) with auth; every message is parsed back
 * with mailparser. By default the first recipient's local part picks the answer: `busy…` 451 and
 * `gone…` 550 5.1.1 at RCPT TO, `full…` 552 5.2.2 after the data (permanent, not about the
 * address), `stall…` takes the data and never answers, `stallonce…` stalls the first message of
 * each Message-ID and answers the next; anything else 250 with a queue id.
 */
export class LoopbackSmtp {
  readonly received: ReceivedMail[] = [];
  /** RCPT TO commands per recipient address: every call that reached the peer. */
  readonly rcptCalls = new Map<string, number>();
  /** Messages whose data arrived (answered or stalled). */
  dataEnded = 0;
  readonly #server: SMTPServer;
  readonly #options: LoopbackSmtpOptions;
  readonly #seenMessageIds = new Set<string>();
  #queue = 0;

  private constructor(options: LoopbackSmtpOptions) {
    this.#options = options;
    const { user, password, tls } = options;
    this.#server = new SMTPServer({
      logger: false,
      disabledCommands: tls ? [] : ['STARTTLS'],
      allowInsecureAuth: true,
      closeTimeout: 200,
      // Replies carry exactly the enhanced status written here (or none).
      hideENHANCEDSTATUSCODES: true,
      ...(tls ? { key: tls.key, cert: tls.cert, secure: tls.secure ?? false } : {}),
      onAuth(auth, _session, callback) {
        if (auth.username === user && auth.password === password) callback(null, { user });
        else callback(smtpError(535, 'Authentication credentials invalid'));
      },
      onRcptTo: (address, session, callback) => {
        this.rcptCalls.set(address.address, (this.rcptCalls.get(address.address) ?? 0) + 1);
        if (options.onRcptTo) return options.onRcptTo(address, session, callback);
        const local = address.address.split('@')[0] ?? '';
        if (local.startsWith('busy')) return callback(smtpError(451, '4.3.0 Mailbox busy, try again later'));
        if (local.startsWith('gone')) return callback(smtpError(550, `5.1.1 <${address.address}>: Recipient address rejected: User unknown`));
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.dataEnded += 1;
          const raw = Buffer.concat(chunks);
          void simpleParser(raw).then((parsed) =>
            this.#answer({ raw, session: { ...session }, rcpt: session.envelope.rcptTo.map((r) => r.address), parsed, answered: true }, callback),
          );
        });
      },
    });
    this.#server.on('error', () => undefined);
  }

  static async start(options: LoopbackSmtpOptions): Promise<LoopbackSmtp> {
    const peer = new LoopbackSmtp(options);
    await new Promise<void>((resolve) => peer.#server.listen(0, '127.0.0.1', () => resolve()));
    return peer;
  }

  get port(): number {
    return (this.#server.server.address() as AddressInfo).port;
  }

  /** An `smtp` provider entry for this peer (name `email-smtp`, its credentials in the URL), with `overrides` on top. */
  providerConfig(overrides: Partial<SmtpProviderConfigInput> = {}): SmtpProviderConfigInput {
    const scheme = this.#options.tls?.secure ? 'smtps' : 'smtp';
    const credentials = `${encodeURIComponent(this.#options.user)}:${encodeURIComponent(this.#options.password)}`;
    return {
      kind: 'smtp',
      name: 'email-smtp',
      url: `${scheme}://${credentials}@127.0.0.1:${this.port}`,
      from: 'Bildirim Servisi <bildirim@notify.example>',
      connectionTimeoutMs: 2_000,
      greetingTimeoutMs: 2_000,
      socketTimeoutMs: 2_000,
      ...overrides,
    };
  }

  /** Messages received for `address`, answered or not. */
  mailsTo(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.rcpt.includes(address));
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #answer(mail: ReceivedMail, callback: (error?: Error | null, message?: string) => void): void {
    const messageId = mail.parsed.messageId ?? '';
    const firstOfMessageId = !this.#seenMessageIds.has(messageId);
    this.#seenMessageIds.add(messageId);
    const answer = (this.#options.answer ?? answerByLocalPart)(mail, firstOfMessageId);
    this.received.push(mail);
    if (answer === 'stall') return void (mail.answered = false); // taken, never answered
    if (answer instanceof Error) return callback(answer);
    this.#queue += 1;
    callback(null, answer.reply ?? `OK: queued as Q${String(this.#queue).padStart(6, '0')}`);
  }
}
