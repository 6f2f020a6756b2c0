import { LoopbackSmtp } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, TURKISH, waitTerminal } from './real-provider-harness';

/**
 * E-mail over SMTP through the real worker (api → Redis → worker → SmtpAdapter → smtp-server
 * peer on loopback): delivered, transient (451), permanent (550 5.1.1, then suppressed) and
 * unknown (the peer takes the data and never answers).
 */
const USER = 'notify';
const PASSWORD = 'smtp-pw-Worker-7731';

let peer: LoopbackSmtp;
let platform: TestPlatform;

beforeAll(async () => {
  peer = await LoopbackSmtp.start({ user: USER, password: PASSWORD });
  // A stall after DATA's final dot becomes unknown after socketTimeoutMs.
  platform = await startWithProviders([peer.providerConfig({ connectionTimeoutMs: 1000, greetingTimeoutMs: 1000, socketTimeoutMs: 1000 })]);
});

afterAll(async () => {
  await platform?.stop();
  await peer?.close();
});

const email = (eventId: string, recipientId: string, address: string) => oneChannel('email', eventId, recipientId, address, TURKISH);

describe('e-mail over SMTP through the worker', () => {
  it('delivered: one attempt on email-smtp; the peer parses a Message-ID from the notification id and the Turkish text', async () => {
    const id = await postNotification(platform.api.url, email('smtp-ok', 'smtp-user-ok', 'ok.ayse@example.com'));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('delivered');
    expect(view.deliveredChannel).toBe('email');
    expect(view.attempts).toEqual([expect.objectContaining({ channel: 'email', provider: 'email-smtp', kind: 'send', outcome: 'delivered' })]);
    const mails = peer.mailsTo('ok.ayse@example.com');
    expect(mails).toHaveLength(1);
    const { parsed } = mails[0]!;
    expect(parsed.messageId).toBe(`<notify-${id}@notify.example>`);
    expect(parsed.subject).toBe(TURKISH.title);
    expect(parsed.text?.trim()).toBe(TURKISH.body);
    expect(parsed.html).toContain('ığüşöç');
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Bildirim Servisi', address: 'bildirim@notify.example' });
  });

  it('transient: 451 at RCPT TO is retried on the same provider until the budget of 3 calls is spent', async () => {
    const id = await postNotification(platform.api.url, email('smtp-busy', 'smtp-user-busy', 'busy.mehmet@example.com'));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('failed');
    expect(view.failureReason).toBe('budget-exhausted');
    expect(view.attempts.map((a) => [a.provider, a.outcome, a.errorClass])).toEqual([
      ['email-smtp', 'transient', 'smtp-451'],
      ['email-smtp', 'transient', 'smtp-451'],
      ['email-smtp', 'transient', 'smtp-451'],
    ]);
    expect(peer.rcptCalls.get('busy.mehmet@example.com')).toBe(3);
    expect(peer.mailsTo('busy.mehmet@example.com')).toHaveLength(0);
  });

  it('permanent: 550 5.1.1 fails the channel at once; the next notification to the recipient skips e-mail as suppressed without calling the peer', async () => {
    const address = 'gone.zeynep@example.com';
    const id = await postNotification(platform.api.url, email('smtp-gone-1', 'smtp-user-gone', address));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('failed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'email-smtp', outcome: 'permanent', errorClass: 'smtp-550' })]);
    expect(view.attempts[0]?.message).toContain('5.1.1');
    expect(view.attempts[0]?.message).not.toContain(address);
    expect(peer.rcptCalls.get(address)).toBe(1);

    const second = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('smtp-gone-2', 'smtp-user-gone', address)));
    expect(second.status).toBe('failed');
    expect(second.attempts).toEqual([]);
    expect(second.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'suppressed' })]);
    expect(peer.rcptCalls.get(address)).toBe(1);
  });

  it('unknown: the peer takes the data and never answers; settled unconfirmed (the default), not sent twice', async () => {
    const address = 'stall.can@example.com';
    const id = await postNotification(platform.api.url, email('smtp-stall', 'smtp-user-stall', address));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('unconfirmed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'email-smtp', outcome: 'unknown', errorClass: 'timeout' })]);
    expect(peer.mailsTo(address)).toHaveLength(1);
    expect(peer.rcptCalls.get(address)).toBe(1);
  });

  it('permanent but not about the address: 552 mailbox full fails the notification and does not suppress the recipient', async () => {
    const address = 'full.emre@example.com';
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('smtp-full-1', 'smtp-user-full', address)));
    expect(view.status).toBe('failed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'email-smtp', outcome: 'permanent', errorClass: 'smtp-552' })]);

    // The next notification to the same recipient is tried again: only a dead address is suppressed.
    const second = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('smtp-full-2', 'smtp-user-full', address)));
    expect(second.skips).toEqual([]);
    expect(second.attempts).toEqual([expect.objectContaining({ provider: 'email-smtp', outcome: 'permanent', errorClass: 'smtp-552' })]);
    expect(peer.mailsTo(address)).toHaveLength(2);
  });
});
