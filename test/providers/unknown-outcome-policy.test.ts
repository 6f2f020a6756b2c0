import { LoopbackSmsc, LoopbackSmtp } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, waitTerminal } from './real-provider-harness';

/**
 * UNKNOWN_OUTCOME_<CHANNEL> on providers without an idempotency key (SMTP, SMPP), with peers that
 * take the first message and never answer it, then answer a re-send at once:
 * - `settle` (the default): the notification ends `unconfirmed`, one message at the peer, no re-send;
 * - `resend`: the same provider gets the message again (the peer sees two) and the notification
 *   ends delivered when the peer answers.
 * One platform per policy (the policy is a worker setting), the peers shared.
 */
const SMTP_PASSWORD = 'policy-smtp-pw-9';
const SMPP_PASSWORD = 'Pol1cyPw';
/** Short ASCII content: one SMS part, so "the first submit_sm" is the whole first message. */
const CONTENT = { title: 'Kod', body: 'Kodunuz 4821' };

let smtp: LoopbackSmtp;
let smsc: LoopbackSmsc;
/** submit_sm per destination: the first one to each number is taken and never answered. */
const submitsByPhone = new Map<string, number>();

beforeAll(async () => {
  smtp = await LoopbackSmtp.start({ user: 'notify', password: SMTP_PASSWORD });
  smsc = await LoopbackSmsc.start({
    systemId: 'notify',
    password: SMPP_PASSWORD,
    onSubmit: (submit) => {
      const seen = (submitsByPhone.get(submit.destinationAddr) ?? 0) + 1;
      submitsByPhone.set(submit.destinationAddr, seen);
      return seen === 1 ? { answer: 'never' } : { answer: 'now' };
    },
  });
});

afterAll(async () => {
  await smtp?.close();
  await smsc?.close();
});

async function startWithPolicy(policy: 'settle' | 'resend' | undefined): Promise<TestPlatform> {
  return startWithProviders(
    [smtp.providerConfig({ socketTimeoutMs: 1000 }), smsc.providerConfig({ timeouts: { submitMs: 1000 } })],
    policy ? { UNKNOWN_OUTCOME_EMAIL: policy, UNKNOWN_OUTCOME_SMS: policy } : {},
  );
}

async function unconfirmedCount(platform: TestPlatform): Promise<number> {
  const text = await (await fetch(platform.workers[0]!.metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('notify_notifications_total{') && line.includes('outcome="unconfirmed"'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe('settle (the default): unconfirmed, never sent twice', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startWithPolicy(undefined);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('SMTP: the peer took the data and never answered → unconfirmed, exactly one message at the peer', async () => {
    const address = 'stallonce.settle@example.com';
    const id = await postNotification(platform.api.url, oneChannel('email', 'policy-settle-email', 'policy-settle-email', address, CONTENT));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('unconfirmed');
    expect(view.failureReason).toContain('UNKNOWN_OUTCOME_EMAIL=settle');
    expect(view.attempts.map((a) => [a.provider, a.kind, a.outcome, a.errorClass])).toEqual([['email-smtp', 'send', 'unknown', 'timeout']]);
    expect(smtp.mailsTo(address)).toHaveLength(1);
    expect(smtp.rcptCalls.get(address)).toBe(1);
  });

  it('SMPP: the SMSC took the submit_sm and never answered → unconfirmed, exactly one submit_sm; counted in the metrics', async () => {
    const phone = '+905554440001';
    const id = await postNotification(platform.api.url, oneChannel('sms', 'policy-settle-sms', 'policy-settle-sms', phone, CONTENT));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('unconfirmed');
    expect(view.attempts.map((a) => [a.provider, a.kind, a.outcome, a.errorClass])).toEqual([['sms-smpp', 'send', 'unknown', 'timeout']]);
    expect(submitsByPhone.get(phone.slice(1))).toBe(1);
    expect(await unconfirmedCount(platform)).toBe(2);
  });
});

describe('resend: at least once, the re-send delivers', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startWithPolicy('resend');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('SMTP: the same provider sends again (same Message-ID), the peer answers it → delivered; the peer saw two messages', async () => {
    const address = 'stallonce.resend@example.com';
    const id = await postNotification(platform.api.url, oneChannel('email', 'policy-resend-email', 'policy-resend-email', address, CONTENT));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('delivered');
    expect(view.attempts.map((a) => [a.provider, a.kind, a.outcome])).toEqual([
      ['email-smtp', 'send', 'unknown'],
      ['email-smtp', 'reconcile', 'delivered'],
    ]);
    const mails = smtp.mailsTo(address);
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => m.parsed.messageId)).toEqual([`<notify-${id}@notify.example>`, `<notify-${id}@notify.example>`]);
    expect(await unconfirmedCount(platform)).toBe(0);
  });

  it('SMPP: the same provider submits again, the SMSC answers → delivered; the SMSC saw two submit_sm', async () => {
    const phone = '+905554440002';
    const id = await postNotification(platform.api.url, oneChannel('sms', 'policy-resend-sms', 'policy-resend-sms', phone, CONTENT));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('delivered');
    expect(view.attempts.map((a) => [a.provider, a.kind, a.outcome])).toEqual([
      ['sms-smpp', 'send', 'unknown'],
      ['sms-smpp', 'reconcile', 'delivered'],
    ]);
    expect(submitsByPhone.get(phone.slice(1))).toBe(2);
    expect(smsc.submits.filter((s) => s.destinationAddr === phone.slice(1)).map((s) => s.text)).toEqual(['Kod: Kodunuz 4821', 'Kod: Kodunuz 4821']);
  });
});
