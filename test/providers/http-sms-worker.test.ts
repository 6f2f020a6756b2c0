import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, TURKISH, waitTerminal, writeProvidersFile } from './real-provider-harness';

/**
 * SMS over HTTP (the Twilio-like REST shape) through the real worker (api → Redis → worker →
 * HttpSmsAdapter → a loopback node:http provider that checks Basic auth and the form):
 * delivered (201 + sid), transient (503), permanent (400 code 21211 invalid number, then
 * suppressed), unknown (the request is read and never answered). The number picks the answer.
 */
const ACCOUNT = 'AC00112233445566778899';
const AUTH_TOKEN = 'http-sms-token-Worker-55';
const OK = '+905556660001';
const UNAVAILABLE = '+905556660503';
const INVALID = '+905556660211';
const SILENT = '+905556660000';

interface Call {
  to: string;
  body: string;
  authorized: boolean;
}

let server: Server;
let platform: TestPlatform;
const calls: Call[] = [];
const stalled: ServerResponse[] = [];

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = '';
  for await (const chunk of req) raw += (chunk as Buffer).toString('utf8');
  const form = new URLSearchParams(raw);
  const call: Call = {
    to: form.get('To') ?? '',
    body: form.get('Body') ?? '',
    authorized: req.headers.authorization === `Basic ${Buffer.from(`${ACCOUNT}:${AUTH_TOKEN}`).toString('base64')}`,
  };
  calls.push(call);
  if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`) return answer(res, 404, { code: 20404, message: 'not found' });
  if (!call.authorized) return answer(res, 401, { code: 20003, message: 'Authenticate' });
  if (call.to === UNAVAILABLE) return answer(res, 503, { code: 20503, message: 'Service unavailable' });
  if (call.to === INVALID) return answer(res, 400, { code: 21211, message: `The 'To' number ${call.to} is not a valid phone number.` });
  if (call.to === SILENT) return void stalled.push(res); // read, never answered
  answer(res, 201, { sid: `SM${String(calls.length).padStart(32, '0')}`, status: 'queued' });
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const file = writeProvidersFile([
    '  - kind: http-sms',
    '    name: sms-http',
    '    baseUrl: "http://127.0.0.1:${SMS_HTTP_PORT}/2010-04-01"',
    '    account: "${SMS_HTTP_ACCOUNT}"',
    '    authToken: "${SMS_HTTP_TOKEN}"',
    '    from: NOTIFY',
    // A stalled provider becomes unknown after this.
    '    timeoutMs: 1500',
  ]);
  platform = await startTestPlatform({
    workerCount: 1,
    env: {
      PROVIDERS_FILE: file,
      SMS_HTTP_PORT: String((server.address() as AddressInfo).port),
      SMS_HTTP_ACCOUNT: ACCOUNT,
      SMS_HTTP_TOKEN: AUTH_TOKEN,
    },
  });
});

afterAll(async () => {
  await platform?.stop();
  for (const res of stalled) res.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const sms = (eventId: string, recipientId: string, phone: string) => oneChannel('sms', eventId, recipientId, phone, TURKISH);
const callsTo = (phone: string) => calls.filter((c) => c.to === phone);

describe('SMS over HTTP through the worker', () => {
  it('delivered: one attempt on sms-http; the provider got the rendered text with Basic auth', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, sms('http-ok', 'http-user-ok', OK)));
    expect(view.status).toBe('delivered');
    expect(view.attempts).toEqual([expect.objectContaining({ channel: 'sms', provider: 'sms-http', outcome: 'delivered' })]);
    expect(callsTo(OK)).toEqual([{ to: OK, body: `${TURKISH.title}: ${TURKISH.body}`, authorized: true }]);
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
