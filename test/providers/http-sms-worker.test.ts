import { LoopbackHttpSms } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, TURKISH, waitTerminal } from './real-provider-harness';

/**
 * SMS over HTTP (the Twilio-like REST shape) through the real worker (api → Redis → worker →
 * HttpSmsAdapter → a loopback node:http provider that checks Basic auth and the form):
 * delivered (201 + sid), transient (503), permanent (400 code 21211 invalid number, then
 * suppressed), unknown (the request is read and never answered). The number picks the answer.
 */
const OK = '+905556660001';
const UNAVAILABLE = '+905556660503';
const INVALID = '+905556660211';
const SILENT = '+905556660000';

let provider: LoopbackHttpSms;
let platform: TestPlatform;

beforeAll(async () => {
  provider = await LoopbackHttpSms.start({ account: 'AC00112233445566778899', authToken: 'http-sms-token-Worker-55' });
  // A stalled provider becomes unknown after timeoutMs.
  platform = await startWithProviders([provider.providerConfig({ timeoutMs: 1500 })]);
});

afterAll(async () => {
  await platform?.stop();
  await provider?.close();
});

const sms = (eventId: string, recipientId: string, phone: string) => oneChannel('sms', eventId, recipientId, phone, TURKISH);
const callsTo = (phone: string) => provider.callsTo(phone);

describe('SMS over HTTP through the worker', () => {
  it('delivered: one attempt on sms-http; the provider got the rendered text with Basic auth', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('http-ok', 'http-user-ok', OK)));
    expect(view.status).toBe('delivered');
    expect(view.attempts).toEqual([expect.objectContaining({ channel: 'sms', provider: 'sms-http', outcome: 'delivered' })]);
    expect(callsTo(OK).map(({ to, body, authorized }) => ({ to, body, authorized }))).toEqual([
      { to: OK, body: `${TURKISH.title}: ${TURKISH.body}`, authorized: true },
    ]);
  });

  it('transient: 503 is retried on sms-http until the budget of 3 calls is spent', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('http-503', 'http-user-503', UNAVAILABLE)));
    expect(view.status).toBe('failed');
    expect(view.attempts.map((a) => [a.provider, a.outcome, a.errorClass])).toEqual([
      ['sms-http', 'transient', 'http-503-20503'],
      ['sms-http', 'transient', 'http-503-20503'],
      ['sms-http', 'transient', 'http-503-20503'],
    ]);
    expect(callsTo(UNAVAILABLE)).toHaveLength(3);
  });

  it('permanent: an invalid number (21211) fails at once; the next notification to the recipient skips SMS as suppressed without a request', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('http-invalid-1', 'http-user-invalid', INVALID)));
    expect(view.status).toBe('failed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'sms-http', outcome: 'permanent', errorClass: 'http-400-21211' })]);
    expect(view.attempts[0]?.message ?? '').not.toContain(INVALID.slice(1));

    const second = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('http-invalid-2', 'http-user-invalid', INVALID)));
    expect(second.status).toBe('failed');
    expect(second.attempts).toEqual([]);
    expect(second.skips).toEqual([expect.objectContaining({ channel: 'sms', reason: 'suppressed' })]);
    expect(callsTo(INVALID)).toHaveLength(1);
  });

  it('unknown: the provider reads the request and never answers; settled unconfirmed, sent once', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('http-silent', 'http-user-silent', SILENT)));
    expect(view.status).toBe('unconfirmed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'sms-http', outcome: 'unknown', errorClass: 'timeout' })]);
    expect(callsTo(SILENT)).toHaveLength(1);
  });
});
