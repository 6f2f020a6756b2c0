import { waitFor } from '@notify/platform-kit';
import { LoopbackSmsc } from '@notify/providers/testing';
import { readViews } from '../harness/notification-poll';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, waitTerminal, writeProvidersFile } from '../providers/real-provider-harness';

/**
 * SMPP receipts reach the worker through the adapter's onReceipt (deliver_sm from the loopback
 * SMSC) and are applied like the api's provider events (docs/provider-events.md).
 */
const SMPP_PASSWORD = 'RcptPw01';
const CONTENT = { title: 'Kod', body: 'Kodunuz 4821' };
const HELD_PHONE = '905554440100';

let smsc: LoopbackSmsc;
let platform: TestPlatform;

beforeAll(async () => {
  smsc = await LoopbackSmsc.start({
    systemId: 'notify',
    password: SMPP_PASSWORD,
    // The held number's submit_sm is answered only when the test releases it (after the timeout).
    onSubmit: (submit) => (submit.destinationAddr === HELD_PHONE ? { answer: 'hold' } : { answer: 'now' }),
  });
  const file = writeProvidersFile([
    '  - kind: smpp',
    '    name: sms-smpp',
    '    url: "smpp://notify:${SMPP_PASSWORD}@127.0.0.1:${SMPP_PORT}"',
    '    sourceAddr: Notify',
    '    timeouts: { submitMs: 1000 }',
  ]);
  platform = await startTestPlatform({ workerCount: 1, env: { PROVIDERS_FILE: file, SMPP_PASSWORD, SMPP_PORT: String(smsc.port) } });
}, 60_000);

afterAll(async () => {
  await platform?.stop();
  await smsc?.close();
});

const view = async (id: string) => (await readViews(platform.redis.url, [id]))[0]!;

it('a deliver_sm receipt for a delivered message is recorded on its attempt', async () => {
  const id = await postNotification(platform.api.url, oneChannel('sms', 'smpp-rcpt-1', 'smpp-rcpt-1', '+905554440001', CONTENT));
  const delivered = await waitTerminal(platform.redis.url, id);
  expect(delivered.status).toBe('delivered');
  const submit = smsc.submits.find((s) => s.destinationAddr === '905554440001')!;
  expect(delivered.attempts[0]).toMatchObject({ provider: 'sms-smpp', providerMessageId: submit.messageId });

  await smsc.sendReceipt({ messageId: submit.messageId, stat: 'DELIVRD' });
  const after = await waitFor('the receipt on the attempt', async () => ((await view(id)).attempts[0]?.receipt ? view(id) : undefined), 10_000, 50);
  expect(after.status).toBe('delivered');
  expect(after.attempts[0]).toMatchObject({ receipt: 'delivered', receiptDetail: expect.stringContaining('stat:DELIVRD') });
});

it('a late submit_sm_resp and its receipt settle an unconfirmed notification as delivered (no second send)', async () => {
  const id = await postNotification(platform.api.url, oneChannel('sms', 'smpp-rcpt-2', 'smpp-rcpt-2', `+${HELD_PHONE}`, CONTENT));
  const unconfirmed = await waitTerminal(platform.redis.url, id);
  expect(unconfirmed.status).toBe('unconfirmed');
  expect(unconfirmed.attempts[0]).toMatchObject({ outcome: 'unknown', providerMessageId: `pending:${id}` });

  smsc.releaseHeld();
  const submit = smsc.submits.find((s) => s.destinationAddr === HELD_PHONE)!;
  // The adapter ties the late message_id to the pending id when the answer arrives; the receipt follows it.
  await waitFor(
    'the receipt applied',
    async () => {
      if ((await view(id)).status === 'delivered') return true;
      await smsc.sendReceipt({ messageId: submit.messageId, stat: 'DELIVRD' }).catch(() => undefined);
      return undefined;
    },
    15_000,
    200,
  );
  const settled = await view(id);
  expect(settled).toMatchObject({ status: 'delivered', deliveredChannel: 'sms' });
  expect(settled.attempts).toHaveLength(1);
  expect(settled.attempts[0]).toMatchObject({ outcome: 'unknown', receipt: 'delivered' });
  expect(smsc.submits.filter((s) => s.destinationAddr === HELD_PHONE)).toHaveLength(1);
}, 60_000);
