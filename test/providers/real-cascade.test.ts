import { LoopbackSmsc, LoopbackSmtp, reassemble } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { postNotification, startWithProviders, TURKISH, waitTerminal } from './real-provider-harness';

/**
 * The cascade across real adapters: e-mail is preferred, its SMTP peer refuses the address with
 * 550 5.1.1, and the next channel, SMS over SMPP, delivers. The record shows both calls and
 * which provider made each.
 */
const SMTP_PASSWORD = 'cascade-smtp-pw-1';
const SMPP_PASSWORD = 'Casc4de1';
const PHONE = '+905551230001';
const ADDRESS = 'gone.cascade@example.com';

let smtp: LoopbackSmtp;
let smsc: LoopbackSmsc;
let platform: TestPlatform;

beforeAll(async () => {
  smtp = await LoopbackSmtp.start({ user: 'notify', password: SMTP_PASSWORD });
  smsc = await LoopbackSmsc.start({ systemId: 'notify', password: SMPP_PASSWORD });
  platform = await startWithProviders([smtp.providerConfig({ socketTimeoutMs: 1000 }), smsc.providerConfig({ timeouts: { submitMs: 1500 } })]);
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.close();
  await smsc?.close();
});

it('SMTP refuses with 550 5.1.1 → SMS over SMPP delivers; the record shows both attempts with their providers', async () => {
  const id = await postNotification(platform.api.url, {
    eventId: 'cascade-1',
    priority: 'urgent',
    recipient: { id: 'cascade-user', addresses: { email: ADDRESS, sms: PHONE }, preferences: ['email', 'sms'] },
    content: TURKISH,
  });
  const view = await waitTerminal(platform.redis.url, id);
  expect(view.status).toBe('delivered');
  expect(view.plan).toEqual(['email', 'sms']);
  expect(view.deliveredChannel).toBe('sms');
  expect(view.attempts.map((a) => [a.step, a.channel, a.provider, a.outcome, a.errorClass])).toEqual([
    [1, 'email', 'email-smtp', 'permanent', 'smtp-550'],
    [2, 'sms', 'sms-smpp', 'delivered', undefined],
  ]);
  // Each peer saw exactly its call: one refused RCPT TO, one SMS (all its parts) with the text.
  expect(smtp.rcptCalls.get(ADDRESS)).toBe(1);
  expect(smtp.received).toHaveLength(0);
  const texts = reassemble(smsc.submits.filter((s) => `+${s.destinationAddr}` === PHONE));
  expect(texts).toEqual([`${TURKISH.title}: ${TURKISH.body}`]);
});
