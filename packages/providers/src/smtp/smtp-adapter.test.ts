import { once } from 'node:events';
import { inspect } from 'node:util';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { renderForChannel } from '@notify/core';
import { freePort } from '@notify/platform-kit';
import { generate } from 'selfsigned';
import type { SendRequest } from '../adapter';
import { LoopbackSmtp, smtpError, type LoopbackSmtpOptions } from '../testing';
import { smtpProviderConfigSchema, type SmtpProviderConfigInput } from './config';
import { notificationMessageId, queueIdOf, SmtpAdapter, textToHtml } from './smtp-adapter';
import { classifySmtpFailure, isAddressInvalid } from './smtp-outcome';

/**
 * SmtpAdapter against real SMTP peers on loopback (the `smtp-server` package): the message is
 * parsed back with mailparser. Every peer is one behaviour: accept, answer 450 / 550 / 552,
 * stall after DATA's final dot, stall before DATA.
 */
const USER = 'notify';
const PASSWORD = 'Sıfre:s3cr3t/p@ss';
const RECIPIENT = 'ayşe.yılmaz@example.com.tr';
const PLAIN_RECIPIENT = 'ayse.yilmaz@example.com.tr';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A peer answering 250 with a queue id after the data, unless `options` say otherwise. */
async function startPeer(options: Partial<LoopbackSmtpOptions> = {}): Promise<LoopbackSmtp> {
  const peer = await LoopbackSmtp.start({ user: USER, password: PASSWORD, answer: () => ({ reply: 'OK: queued as 7F3A2B9C1D' }), ...options });
  closers.push(() => peer.close());
  return peer;
}

/** An smtp:// URL with the right credentials to a port no peer answers on. */
const urlAt = (port: number) => `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;

function adapter(peer: LoopbackSmtp, overrides: Partial<SmtpProviderConfigInput> = {}): SmtpAdapter {
  const created = new SmtpAdapter(peer.providerConfig({ from: 'Bildirim Servisi <bildirim@ornek.com.tr>', ...overrides }));
  closers.push(() => created.close());
  return created;
}

const SUBJECT = 'Şifre sıfırlama — İstanbul şubesi';
const BODY = 'Merhaba Ayşe,\n\nŞifrenizi sıfırlamak için kodunuz: 4821. <b>Kimseyle paylaşmayın</b> & iyi günler.\nĞüşiöç ĞÜŞİÖÇ ı İ';

function request(id = 'ntf_01HZX8K2M4', to = RECIPIENT): SendRequest {
  return {
    notificationId: id,
    idempotencyKey: `key-${id}`,
    to,
    message: renderForChannel('email', { title: SUBJECT, body: BODY }, { smsMaxSegments: 3 }),
    priority: 'urgent',
  };
}

/** No password, no recipient anywhere in what the adapter answers. */
function expectNoSecrets(value: unknown): void {
  const json = JSON.stringify(value);
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), 's3cr3t', RECIPIENT, PLAIN_RECIPIENT, 'yılmaz', 'yilmaz']) expect(json).not.toContain(secret);
}

describe('SmtpAdapter: delivered', () => {
  let cert: { cert: string; private: string };
  beforeAll(async () => {
    cert = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 7, ip: '127.0.0.1' },
            { type: 2, value: 'localhost' },
          ],
        },
      ],
    });
  });

  it('sends over STARTTLS with auth: Message-ID from the notification id, text and HTML parts, Turkish text intact', async () => {
    const peer = await startPeer({ tls: { key: cert.private, cert: cert.cert } });
    const email = adapter(peer, { requireTls: true, tls: { rejectUnauthorized: true, ca: cert.cert } });
    expect(email.capabilities).toEqual({ idempotencyKey: false, lookup: false, receipts: false });

    const result = await email.send(request());
    expect(result).toMatchObject({ outcome: 'delivered', sent: true, providerMessageId: '7F3A2B9C1D' });

    expect(peer.received).toHaveLength(1);
    const { parsed, session, raw } = peer.received[0]!;
    expect(session.secure).toBe(true);
    expect(session.user).toBe(USER);
    expect(session.envelope.rcptTo.map((r) => r.address)).toEqual([RECIPIENT]);
    expect(parsed.messageId).toBe('<notify-ntf_01HZX8K2M4@ornek.com.tr>');
    expect(parsed.subject).toBe(SUBJECT);
    expect(parsed.text?.trimEnd()).toBe(BODY);
    expect(parsed.html).toContain('&lt;b&gt;Kimseyle paylaşmayın&lt;/b&gt; &amp; iyi günler.');
    expect(parsed.html).not.toContain('<b>');
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Bildirim Servisi', address: 'bildirim@ornek.com.tr' });
    // On the wire: every header and body line within RFC 5322's 78 characters.
    const wire = raw.toString('latin1');
    expect(wire).toMatch(/Content-Type: text\/plain; charset=utf-8/i);
    expect(wire).toMatch(/Content-Type: text\/html; charset=utf-8/i);
    expect(wire).toMatch(/Content-Type: multipart\/alternative/i);
    expect(wire).toMatch(/^X-Priority: 1/m); // urgent notifications
    expect(Math.max(...wire.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(78);
    // Subject and body are encoded (7-bit on the wire); only the internationalized address goes as UTF-8 (RFC 6532, SMTPUTF8).
    expect(
      raw
        .toString('utf8')
        .split('\r\n')
        .filter((line) => /[^ -~\t]/.test(line)),
    ).toEqual([`To: ${RECIPIENT}`]);
  });

  it('the same notification always gets the same Message-ID; without a queue id the Message-ID is the provider id', async () => {
    const peer = await startPeer({ answer: () => ({ reply: 'Message accepted' }) });
    const email = adapter(peer);
    const first = await email.send(request('ntf-same'));
    const second = await email.send(request('ntf-same'));
    expect(first).toMatchObject({ outcome: 'delivered', providerMessageId: '<notify-ntf-same@ornek.com.tr>' });
    expect(second.providerMessageId).toBe(first.providerMessageId);
    expect(peer.received.map((r) => r.parsed.messageId)).toEqual(['<notify-ntf-same@ornek.com.tr>', '<notify-ntf-same@ornek.com.tr>']);
    expect(peer.received[1]!.session.secure).toBe(false);
  });

  it('smtps:// speaks TLS from the first byte', async () => {
    const peer = await startPeer({ tls: { key: cert.private, cert: cert.cert, secure: true } });
    const email = adapter(peer, { tls: { rejectUnauthorized: true, ca: cert.cert } });
    expect(await email.send(request())).toMatchObject({ outcome: 'delivered' });
    expect(peer.received[0]!.session.secure).toBe(true);
  });

  it('an untrusted certificate is never accepted silently: transient, not sent', async () => {
    const peer = await startPeer({ tls: { key: cert.private, cert: cert.cert } });
    const result = await adapter(peer, { requireTls: true }).send(request());
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'DEPTH_ZERO_SELF_SIGNED_CERT', sent: false });
    expect(peer.dataEnded).toBe(0);
  });
});

describe('SmtpAdapter: replies and failures', () => {
  it('450 to RCPT TO is transient', async () => {
    const peer = await startPeer({
      onRcptTo: (_address, _session, callback) => callback(smtpError(450, '4.2.1 Mailbox busy, try again later')),
    });
    const result = await adapter(peer).send(request());
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'smtp-450', sent: true });
    expect(result.addressInvalid).toBeUndefined();
  });

  it('550 5.1.1 to RCPT TO is permanent and the address is invalid; the answer names neither address nor password', async () => {
    const peer = await startPeer({
      onRcptTo: (address, _session, callback) => callback(smtpError(550, `5.1.1 <${address.address}>: Recipient address rejected: User unknown`)),
    });
    const result = await adapter(peer).send(request());
    expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'smtp-550', sent: true, addressInvalid: true });
    expect(result.message).toContain('5.1.1');
    expectNoSecrets(result);
  });

  it('553 without an enhanced status to RCPT TO is an invalid address too', async () => {
    const peer = await startPeer({
      onRcptTo: (_address, _session, callback) => callback(smtpError(553, 'mailbox name not allowed')),
    });
    expect(await adapter(peer).send(request())).toMatchObject({ outcome: 'permanent', errorClass: 'smtp-553', addressInvalid: true });
  });

  it('552 after the data is permanent but says nothing about the address', async () => {
    const peer = await startPeer({ answer: () => smtpError(552, '5.2.2 Mailbox full') });
    const result = await adapter(peer).send(request());
    expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'smtp-552', sent: true });
    expect(result.addressInvalid).toBeUndefined();
  });

  it('550 5.7.1 (policy) after the data is permanent, not an address error', async () => {
    const peer = await startPeer({ answer: () => smtpError(550, '5.7.1 Message rejected as spam') });
    const result = await adapter(peer).send(request());
    expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'smtp-550' });
    expect(result.addressInvalid).toBeUndefined();
  });

  it('a refused connection is transient and provably not sent', async () => {
    const result = await adapter(await startPeer(), { url: urlAt(await freePort()) }).send(request());
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'ECONNREFUSED', sent: false });
    expectNoSecrets(result);
  });

  it('refused credentials are transient, not sent, and never echo the password', async () => {
    const peer = await startPeer();
    const result = await adapter(peer, { url: `smtp://${USER}:wrong-s3cr3t@127.0.0.1:${peer.port}` }).send(request());
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'smtp-535', sent: false });
    expect(JSON.stringify(result)).not.toContain('wrong-s3cr3t');
    expect(peer.dataEnded).toBe(0);
  });

  it('a server silent after DATA final dot: unknown, sent (the message may have been accepted)', async () => {
    const peer = await startPeer({ answer: () => 'stall' });
    const result = await adapter(peer, { socketTimeoutMs: 500 }).send(request());
    expect(peer.dataEnded).toBe(1); // the peer took the whole message, up to the final dot
    expect(result).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true });
    expectNoSecrets(result);
  });

  it('concurrent sends over the pool are classified each on its own; the adapter holds the password out of sight', async () => {
    const stalled = 'stall@example.com.tr';
    const peer = await startPeer({ answer: (mail) => (mail.rcpt.includes(stalled) ? 'stall' : { reply: 'OK: queued as 7F3A2B9C1D' }) });
    const email = adapter(peer, { socketTimeoutMs: 2_000, pool: { maxConnections: 4, maxMessages: 100 } });
    const results = await Promise.all([
      email.send(request('c-1', 'a@example.com.tr')),
      email.send(request('c-2', stalled)),
      email.send(request('c-3', 'b@example.com.tr')),
      email.send(request('c-4', 'c@example.com.tr')),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(['delivered', 'unknown', 'delivered', 'delivered']);
    expect(
      peer.received
        .filter((r) => r.answered)
        .map((r) => r.parsed.messageId)
        .sort(),
    ).toEqual(['c-1', 'c-3', 'c-4'].map((id) => `<notify-${id}@ornek.com.tr>`));
    expect(inspect(email, { depth: 10, showHidden: true })).not.toContain('s3cr3t');
    expect(JSON.stringify(email)).not.toContain('s3cr3t');
  });

  it('a server silent before DATA completed: transient (nothing can have been delivered)', async () => {
    let asked = 0;
    const peer = await startPeer({
      onRcptTo: () => {
        asked += 1; // never answers
      },
    });
    const result = await adapter(peer, { socketTimeoutMs: 500 }).send(request());
    expect(asked).toBe(1);
    expect(peer.dataEnded).toBe(0);
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'timeout', sent: true });
  });

  it('a server that never greets: transient, not sent', async () => {
    const mute = createServer(() => undefined);
    mute.listen(0, '127.0.0.1');
    await once(mute, 'listening');
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          mute.close(() => resolve());
        }),
    );
    const port = (mute.address() as AddressInfo).port;
    const result = await adapter(await startPeer(), { url: urlAt(port), greetingTimeoutMs: 300, socketTimeoutMs: 5_000 }).send(request());
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'timeout', sent: false });
  });
});

describe('SMTP helpers', () => {
  it('classifies address errors by enhanced status first, RCPT TO code second', () => {
    expect(isAddressInvalid(550, '550 5.1.1 User unknown', 'DATA')).toBe(true);
    expect(isAddressInvalid(550, '550 5.7.1 Spam', 'RCPT TO')).toBe(false);
    expect(isAddressInvalid(553, '553 5.1.8 Bad sender domain', 'MAIL FROM')).toBe(false);
    expect(isAddressInvalid(551, '551 User not local', 'RCPT TO')).toBe(true);
    expect(isAddressInvalid(554, '554 Transaction failed', 'RCPT TO')).toBe(false);
    expect(isAddressInvalid(450, '450 4.1.1 later', 'RCPT TO')).toBe(false);
  });

  it('a socket error after the final dot is unknown, before it transient', () => {
    expect(classifySmtpFailure({ code: 'ECONNECTION', command: 'CONN' }, true, 1)).toMatchObject({ outcome: 'unknown', sent: true });
    expect(classifySmtpFailure({ code: 'ECONNECTION', command: 'CONN' }, false, 1)).toMatchObject({ outcome: 'transient', sent: true });
  });

  it('reads queue ids, escapes HTML and keeps Message-IDs valid', () => {
    expect(queueIdOf('250 2.0.0 Ok: queued as 4FzK2x1Qz')).toBe('4FzK2x1Qz');
    expect(queueIdOf('250 OK')).toBeUndefined();
    expect(textToHtml('a<b>\n\nc & "d"', 'S<')).toContain('<p>a&lt;b&gt;</p>\n<p>c &amp; &quot;d&quot;</p>');
    expect(notificationMessageId('n 1/ş', 'example.com')).toMatch(/^<notify-[A-Za-z0-9_-]+@example\.com>$/);
  });

  it('a config error names the field, never the URL with its password', () => {
    const parsed = smtpProviderConfigSchema.safeParse({ kind: 'smtp', name: 'email-smtp', url: 'http://user:pa55word@host', from: 'a@b.c' });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error)).not.toContain('pa55word');
  });
});
