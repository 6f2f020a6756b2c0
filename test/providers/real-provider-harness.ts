import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import request from 'supertest';
import { SMTPServer } from 'smtp-server';
import { isTerminal, type NotificationView } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { readViews } from '../harness/notification-poll';
import { TEST_API_KEY } from '../harness/platform';

/**
 * Shared by the real-provider integration tests (api → Redis → worker → adapter → loopback peer):
 * a PROVIDERS_FILE in a temp dir, posting one notification, waiting for its terminal record,
 * and an SMTP peer whose answer depends on the recipient's local part.
 */

/** Writes `providers:` + the entries (YAML lines, indented by the caller) to a temp file; returns its path. */
export function writeProvidersFile(entries: readonly string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'real-providers-')), 'providers.yaml');
  writeFileSync(file, ['providers:', ...entries, ''].join('\n'));
  return file;
}

/** POSTs one notification; returns its id (expects 202). */
export async function postNotification(apiUrl: string, body: unknown, apiKey = TEST_API_KEY): Promise<string> {
  const res = await request(apiUrl)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${apiKey}`)
    .send(body as object);
  if (res.status !== 202) throw new Error(`POST /v1/notifications answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as { id: string }).id;
}

/** Waits until the notification is terminal; returns its record (read from Redis). */
export async function waitTerminal(redisUrl: string, id: string, timeoutMs = 30_000): Promise<NotificationView> {
  return waitFor(
    `notification ${id} terminal`,
    async () => {
      const [view] = await readViews(redisUrl, [id]);
      return view && isTerminal(view.status) ? view : undefined;
    },
    timeoutMs,
    100,
  );
}

/** A notification whose plan is exactly `channel` (only that address, preferences [channel]). */
export function oneChannel(channel: 'email' | 'sms' | 'push', eventId: string, recipientId: string, address: unknown, content: object) {
  return { eventId, priority: 'urgent', recipient: { id: recipientId, addresses: { [channel]: address }, preferences: [channel] }, content };
}

/** Turkish content: dotted/dotless i, ğ, ş, ç, ö, ü in title and body. */
export const TURKISH = {
  title: 'Şifre sıfırlama — İstanbul',
  body: 'Merhaba Ayşe, doğrulama kodunuz 482913. Kimseyle paylaşmayın; iyi günler dileriz! ĞÜŞİÖÇ ığüşöç',
};

export interface ReceivedMail {
  rcpt: string[];
  parsed: ParsedMail;
}

/**
 * An SMTP peer (the `smtp-server` package) on a free loopback port, with auth. The recipient's
 * local part picks the answer: `busy…` 451 at RCPT TO, `gone…` 550 5.1.1 at RCPT TO, `full…` 552
 * 5.2.2 after the data (permanent, not about the address), `stall…`
 * takes the data and never answers, `stallonce…` stalls the first message of each Message-ID and
 * accepts the next; anything else 250 with a queue id.
 */
export class SmtpPeer {
  readonly received: ReceivedMail[] = [];
  /** RCPT TO commands per recipient address: every call that reached the peer. */
  readonly rcptCalls = new Map<string, number>();
  /** Messages whose data arrived (answered or stalled). */
  dataEnded = 0;
  readonly #server: SMTPServer;
  readonly #seenMessageIds = new Set<string>();
  #queue = 0;

  private constructor(user: string, password: string) {
    this.#server = new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      closeTimeout: 200,
      hideENHANCEDSTATUSCODES: true,
      onAuth(auth, _session, callback) {
        if (auth.username === user && auth.password === password) callback(null, { user });
        else callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
      },
      onRcptTo: (address, _session, callback) => {
        this.rcptCalls.set(address.address, (this.rcptCalls.get(address.address) ?? 0) + 1);
        const local = address.address.split('@')[0] ?? '';
        if (local.startsWith('busy')) return callback(Object.assign(new Error('4.3.0 Mailbox busy, try again later'), { responseCode: 451 }));
        if (local.startsWith('gone'))
          return callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 }));
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.dataEnded += 1;
          const rcpt = session.envelope.rcptTo.map((r) => r.address);
          void simpleParser(Buffer.concat(chunks)).then((parsed) => {
            this.received.push({ rcpt, parsed });
            const local = rcpt[0]?.split('@')[0] ?? '';
            const messageId = parsed.messageId ?? '';
            const firstOfId = !this.#seenMessageIds.has(messageId);
            this.#seenMessageIds.add(messageId);
            if (local.startsWith('stallonce') ? firstOfId : local.startsWith('stall')) return; // taken, never answered
            if (local.startsWith('full')) return callback(Object.assign(new Error('5.2.2 Mailbox full'), { responseCode: 552 }));
            this.#queue += 1;
            callback(null, `OK: queued as Q${String(this.#queue).padStart(6, '0')}`);
          });
        });
      },
    });
    this.#server.on('error', () => undefined);
  }

  static async start(user: string, password: string): Promise<SmtpPeer> {
    const peer = new SmtpPeer(user, password);
    await new Promise<void>((resolve) => peer.#server.listen(0, '127.0.0.1', () => resolve()));
    return peer;
  }

  get port(): number {
    return (this.#server.server.address() as AddressInfo).port;
  }

  /** Messages received for `address`. */
  mailsTo(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.rcpt.includes(address));
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
