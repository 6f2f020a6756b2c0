import { renderForChannel } from '@notify/core';
import { freePort } from '@notify/platform-kit';
import type { SendRequest } from '../adapter';
import { HTTP_SMS_NUMBER_ANSWERS, LoopbackHttpSms } from '../testing';
import { httpSmsProviderConfigSchema, type HttpSmsProviderConfigInput } from './config';
import { HttpSmsAdapter } from './http-sms-adapter';

/**
 * HttpSmsAdapter against a loopback provider in the Twilio REST shape (node:http): it checks
 * Basic auth, the path and the form fields, and answers by the destination number.
 */
const ACCOUNT = 'AC0123456789abcdef';
const TOKEN = 'tok-s3cr3t-0987';
const DELIVERED = '+905551112233';
const INVALID = `+9055511${HTTP_SMS_NUMBER_ANSWERS.invalid}`;
const UNSUBSCRIBED = `+9055511${HTTP_SMS_NUMBER_ANSWERS.unsubscribed}`;

let provider: LoopbackHttpSms;
const adapters: HttpSmsAdapter[] = [];
const calls = () => provider.calls;

beforeAll(async () => {
  provider = await LoopbackHttpSms.start({ account: ACCOUNT, authToken: TOKEN });
});

afterEach(() => provider.releaseStalled());

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await provider.close();
});

function adapter(overrides: Partial<HttpSmsProviderConfigInput> = {}): HttpSmsAdapter {
  const created = new HttpSmsAdapter(provider.providerConfig(overrides));
  adapters.push(created);
  return created;
}

function request(to: string, id = `n-${calls().length}`): SendRequest {
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
    const call = calls().at(-1)!;
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
    expect(provider.stalled).toHaveLength(1);
  });

  it('a refused connection is transient and not sent; the answer names neither token nor number', async () => {
    const port = await freePort();
    const result = await adapter({ baseUrl: `http://127.0.0.1:${port}/2010-04-01` }).send(request(DELIVERED));
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'ECONNREFUSED', sent: false });
    expectNoSecrets(result, DELIVERED);
  });

  it('with an idempotency header configured, every call carries the notification key and the capability says so', async () => {
    const sms = adapter({ idempotencyHeader: 'Idempotency-Key' });
    expect(sms.capabilities.idempotencyKey).toBe(true);
    await sms.send(request(DELIVERED, 'n-idem'));
    expect(calls().at(-1)!.idempotencyKey).toBe('key-n-idem');
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
