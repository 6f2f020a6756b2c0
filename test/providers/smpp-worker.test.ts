import { SMPP_STATUS } from '@notify/providers';
import { LoopbackSmsc, reassemble } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, TURKISH, waitTerminal } from './real-provider-harness';

/**
 * SMS over SMPP 3.4 through the real worker (api → Redis → worker → SmppAdapter → an SMSC on
 * loopback built with the `smpp` package): delivered (ESME_ROK), transient (ESME_RTHROTTLED),
 * permanent (ESME_RINVDSTADR, then suppressed), unknown (no submit_sm_resp).
 * The destination number picks the SMSC's answer.
 */
const SYSTEM_ID = 'notify';
const PASSWORD = 'Smpp7kQz';
const OK = '+905550000001';
const THROTTLED = '+905550000002';
const INVALID = '+905550000003';
const SILENT = '+905550000004';

let smsc: LoopbackSmsc;
let platform: TestPlatform;

beforeAll(async () => {
  smsc = await LoopbackSmsc.start({
    systemId: SYSTEM_ID,
    password: PASSWORD,
    onSubmit: (submit) => {
      switch (`+${submit.destinationAddr}`) {
        case THROTTLED:
          return { answer: 'now', status: SMPP_STATUS.ESME_RTHROTTLED };
        case INVALID:
          return { answer: 'now', status: SMPP_STATUS.ESME_RINVDSTADR };
        case SILENT:
          return { answer: 'never' };
        default:
          return { answer: 'now' };
      }
    },
  });
  platform = await startWithProviders([
    // No submit_sm_resp becomes unknown after submitMs.
    smsc.providerConfig({ timeouts: { connectMs: 1000, bindMs: 1000, submitMs: 1500 }, rebind: { initialMs: 50, maxMs: 500 } }),
  ]);
});

afterAll(async () => {
  await platform?.stop();
  await smsc?.close();
});

const sms = (eventId: string, recipientId: string, phone: string) => oneChannel('sms', eventId, recipientId, phone, TURKISH);
const submitsTo = (phone: string) => smsc.submits.filter((s) => `+${s.destinationAddr}` === phone);

describe('SMS over SMPP through the worker', () => {
  it('delivered: one attempt on sms-smpp; the SMSC received the Turkish text (UCS-2, reassembled)', async () => {
    const id = await postNotification(platform.api.url, sms('smpp-ok', 'smpp-user-ok', OK));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('delivered');
    expect(view.attempts).toEqual([expect.objectContaining({ channel: 'sms', provider: 'sms-smpp', outcome: 'delivered' })]);
    const parts = submitsTo(OK);
    expect(parts.length).toBeGreaterThanOrEqual(1);
    expect(parts.every((p) => p.dataCoding === 8)).toBe(true);
    const [text] = reassemble(parts);
    expect(text).toContain(TURKISH.body);
    expect(smsc.binds).toBeGreaterThanOrEqual(1);
  });

  it('transient: ESME_RTHROTTLED is retried on sms-smpp until the budget of 3 calls is spent', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('smpp-throttled', 'smpp-user-throttled', THROTTLED)));
    expect(view.status).toBe('failed');
    expect(view.attempts.map((a) => [a.provider, a.outcome, a.errorClass])).toEqual([
      ['sms-smpp', 'transient', 'smpp-0x00000058'],
      ['sms-smpp', 'transient', 'smpp-0x00000058'],
      ['sms-smpp', 'transient', 'smpp-0x00000058'],
    ]);
    expect(view.attempts[0]?.message).toContain('ESME_RTHROTTLED');
  });

  it('permanent: ESME_RINVDSTADR fails at once; the next notification to the recipient skips SMS as suppressed without a submit_sm', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('smpp-invalid-1', 'smpp-user-invalid', INVALID)));
    expect(view.status).toBe('failed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'sms-smpp', outcome: 'permanent', errorClass: 'smpp-0x0000000b' })]);
    const submits = smsc.submits.length;

    const second = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('smpp-invalid-2', 'smpp-user-invalid', INVALID)));
    expect(second.status).toBe('failed');
    expect(second.attempts).toEqual([]);
    expect(second.skips).toEqual([expect.objectContaining({ channel: 'sms', reason: 'suppressed' })]);
    expect(smsc.submits.length).toBe(submits);
  });

  it('unknown: no submit_sm_resp; settled unconfirmed, submitted once', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('smpp-silent', 'smpp-user-silent', SILENT)));
    expect(view.status).toBe('unconfirmed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'sms-smpp', outcome: 'unknown', errorClass: 'timeout' })]);
    // One message: one concatenation reference, no part submitted twice.
    const parts = submitsTo(SILENT);
    expect(parts.length).toBeGreaterThanOrEqual(1);
    expect(new Set(parts.map((p) => p.concat?.reference ?? 'single')).size).toBe(1);
    expect(new Set(parts.map((p) => p.concat?.sequence ?? 1)).size).toBe(parts.length);
  });
});
