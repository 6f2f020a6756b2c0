import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderForChannel } from '@notify/core';
import type { SendRequest } from '../adapter';
import { httpSmsProviderConfigSchema, type HttpSmsProviderConfigInput } from './config';
import { HttpSmsAdapter } from './http-sms-adapter';

/**
 * HttpSmsAdapter against a loopback provider in the Twilio REST shape (node:http): it checks
 * Basic auth, the path and the form fields, and answers by the destination number.
 */
const ACCOUNT = 'AC0123456789abcdef';
const TOKEN = 'tok-s3cr3t-0987';
const DELIVERED = '+905551112233';
const INVALID = '+90555000';
const UNSUBSCRIBED = '+905554443322';

interface Call {
  path: string;
  authorized: boolean;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
}

let server: Server;
let baseUrl: string;
const calls: Call[] = [];
let stalled: ServerResponse[] = [];
const adapters: HttpSmsAdapter[] = [];

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = '';
  for await (const chunk of req) raw += (chunk as Buffer).toString('utf8');
  const expected = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
  const call: Call = {
    path: req.url ?? '',
    authorized: req.headers.authorization === expected,
    contentType: req.headers['content-type'],
    idempotencyKey: req.headers['idempotency-key'] as string | undefined,
    form: new URLSearchParams(raw),
  };
  calls.push(call);
  if (req.method !== 'POST' || call.path !== `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`) return answer(res, 404, { code: 20404, message: 'not found' });
  if (!call.authorized) return answer(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
  const to = call.form.get('To') ?? '';
  if (!call.form.get('Body') || call.form.get('From') !== 'NOTIFY') return answer(res, 400, { code: 21602, message: 'Message body is required.' });
  if (to === INVALID) return answer(res, 400, { code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 });
  if (to === UNSUBSCRIBED) return answer(res, 400, { code: 21610, message: `Attempt to send to unsubscribed recipient ${to}`, status: 400 });
  if (to.endsWith('429')) return answer(res, 429, { code: 20429, message: 'Too Many Requests' });
  if (to.endsWith('503')) return answer(res, 503, { code: 20503, message: 'Service unavailable' });
  if (to.endsWith('0000')) {
    stalled.push(res); // accepted, never answered
    return;
  }
  answer(res, 201, { sid: `SM${calls.length.toString().padStart(32, '0')}`, status: 'queued', to, body: call.form.get('Body') });
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2010-04-01`;
});

afterEach(() => {
  for (const res of stalled) res.destroy();
  stalled = [];
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function adapter(overrides: Partial<HttpSmsProviderConfigInput> = {}): HttpSmsAdapter {
  const created = new HttpSmsAdapter({
    kind: 'http-sms',
    name: 'sms-http',
    baseUrl,
    account: ACCOUNT,
    authToken: TOKEN,
    from: 'NOTIFY',
    timeoutMs: 2_000,
    ...overrides,
  });
  adapters.push(created);
  return created;
}

function request(to: string, id = `n-${calls.length}`): SendRequest {
  return {
    notificationId: id,
    idempotencyKey: `key-${id}`,
    to,
    message: renderForChannel('sms', { title: 'Kargo', body: 'Kargonuz yolda, şoförümüz çıktı' }, { smsMaxSegments: 3 }),
    priority: 'urgent',
  };
}

function expectNoSecrets(value: unknown, number: string): void {
  const json = JSON.stringify(value);
  for (const secret of [TOKEN, Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64'), number, number.slice(1)]) expect(json).not.toContain(secret);
}

describe('HttpSmsAdapter against a loopback REST SMS provider', () => {
  it('posts To/From/Body/StatusCallback with Basic auth and answers the sid', async () => {
    const sms = adapter({ statusCallbackUrl: 'https://notify.example.com/v1/receipts/sms-http' });
    expect(sms.capabilities).toEqual({ idempotencyKey: false, lookup: false, receipts: true });
    const result = await sms.send(request(DELIVERED));
    expect(result).toMatchObject({ outcome: 'delivered', sent: true });
    expect(result.providerMessageId).toMatch(/^SM\d{32}$/);
    const call = calls.at(-1)!;
    expect(call).toMatchObject({ authorized: true, idempotencyKey: undefined });
    expect(call.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(call.form)).toEqual({
      To: DELIVERED,
      From: 'NOTIFY',
      Body: 'Kargo: Kargonuz yolda, şoförümüz çıktı',
      StatusCallback: 'https://notify.example.com/v1/receipts/sms-http',
    });
  });

  it('an invalid number is permanent with addressInvalid, and the answer never echoes it', async () => {
    const result = await adapter().send(request(INVALID));
    expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'http-400-21211', sent: true, addressInvalid: true });
    expectNoSecrets(result, INVALID);
    const unsubscribed = await adapter().send(request(UNSUBSCRIBED));
    expect(unsubscribed).toMatchObject({ outcome: 'permanent', errorClass: 'http-400-21610', addressInvalid: true });
    expectNoSecrets(unsubscribed, UNSUBSCRIBED);
  });

  it('another 4xx code is permanent without addressInvalid', async () => {
    const result = await adapter({ from: 'OTHER' }).send(request(DELIVERED));
    expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'http-400-21602' });
    expect(result.addressInvalid).toBeUndefined();
  });

  it('429 and 5xx are transient', async () => {
    expect(await adapter().send(request('+905551110429'))).toMatchObject({ outcome: 'transient', errorClass: 'http-429-20429', sent: true });
    expect(await adapter().send(request('+905551110503'))).toMatchObject({ outcome: 'transient', errorClass: 'http-503-20503', sent: true });
  });

  it('refused credentials are transient (the provider configuration, not the number) and never echo the token', async () => {
    const result = await adapter({ authToken: 'wrong-t0ken' }).send(request(DELIVERED));
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'http-401-20003', sent: true });
    expect(JSON.stringify(result)).not.toContain('wrong-t0ken');
  });

  it('a timeout after the request went out is unknown', async () => {
    const result = await adapter({ timeoutMs: 300 }).send(request('+905551110000'));
    expect(result).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true });
    expect(stalled).toHaveLength(1);
  });

  it('a refused connection is transient and not sent; the answer names neither token nor number', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await adapter({ baseUrl: `http://127.0.0.1:${port}/2010-04-01` }).send(request(DELIVERED));
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'ECONNREFUSED', sent: false });
    expectNoSecrets(result, DELIVERED);
  });

  it('with an idempotency header configured, every call carries the notification key and the capability says so', async () => {
    const sms = adapter({ idempotencyHeader: 'Idempotency-Key' });
    expect(sms.capabilities.idempotencyKey).toBe(true);
    await sms.send(request(DELIVERED, 'n-idem'));
    expect(calls.at(-1)!.idempotencyKey).toBe('key-n-idem');
  });

  it('a config error names the field, never the token', () => {
    const parsed = httpSmsProviderConfigSchema.safeParse({
      kind: 'http-sms',
      name: 'sms-http',
      baseUrl: 'ftp://x',
      account: 'a',
      authToken: 'pa55-t0ken',
      from: '',
    });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error)).not.toContain('pa55-t0ken');
  });
});
