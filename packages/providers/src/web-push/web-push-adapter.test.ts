import webPush from 'web-push';
import { formatPush, pushSubscriptionSchema, renderForChannel, type Priority, type RenderedMessage } from '@notify/core';
import { freePort } from '@notify/platform-kit';
import type { SendResult } from '../adapter';
import { LoopbackPushService, type PushServiceBehaviour } from '../testing';
import { webPushProviderConfigSchema, type WebPushProviderConfigInput } from './config';
import { WEB_PUSH_MAX_PAYLOAD_BYTES, WebPushAdapter } from './web-push-adapter';

const vapidKeys = webPush.generateVAPIDKeys();
const subject = 'mailto:ops@notify.example';
const rendered = renderForChannel(
  'push',
  {
    title: 'Kargonuz yolda 🚚',
    body: 'Şirin Çağlar, siparişiniz ığdır şubesinden çıktı — "yarın" teslim.',
    overrides: { push: { data: { orderId: 'o-42', deepLink: 'app://orders/o-42' } } },
  },
  { smsMaxSegments: 10 },
);
const pushPayload = () => (rendered as Extract<RenderedMessage, { channel: 'push' }>).push.payload;

let service: LoopbackPushService;
let adapter: WebPushAdapter;
const results: SendResult[] = [];

const config = (overrides: Partial<WebPushProviderConfigInput> = {}): WebPushProviderConfigInput =>
  service.providerConfig({ timeouts: { connectMs: 250, requestMs: 600 }, ...overrides });

async function send(to: unknown, options: { priority?: Priority; message?: RenderedMessage; via?: WebPushAdapter } = {}): Promise<SendResult> {
  const result = await (options.via ?? adapter).send({
    notificationId: 'n-1',
    idempotencyKey: 'k-1',
    to: to as string,
    message: options.message ?? rendered,
    priority: options.priority ?? 'urgent',
  });
  results.push(result);
  return result;
}

const subscription = (behaviour: PushServiceBehaviour = 'accept') => {
  const { id, ...address } = service.subscribe(behaviour);
  return { id, address };
};

/** Whatever the adapters or the libraries they use print (nothing is expected): checked for secrets at the end. */
const printed: jest.SpyInstance[] = [];

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) printed.push(jest.spyOn(console, method));
  service = await LoopbackPushService.start({ subject, vapid: vapidKeys });
  adapter = new WebPushAdapter(config());
});

afterAll(async () => {
  for (const spy of printed) spy.mockRestore();
  await adapter.close();
  await service.close();
});

describe('Web Push adapter against a loopback push service that verifies VAPID and decrypts the payload', () => {
  it('delivers an urgent notification: VAPID JWT verified, aes128gcm payload decrypts to the rendered JSON, TTL 900 and Urgency high', async () => {
    const { id, address } = subscription();
    const result = await send(address);
    expect(result).toMatchObject({ outcome: 'delivered', sent: true, providerMessageId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const received = service.received.find((push) => push.subscriptionId === id);
    expect(received).toBeDefined();
    expect(JSON.parse(received!.plaintext)).toEqual(pushPayload());
    expect(received).toMatchObject({ ttl: '900', urgency: 'high', contentEncoding: 'aes128gcm', vapidPublicKey: vapidKeys.publicKey });
    expect(received!.claims).toMatchObject({ aud: service.origin, sub: subject });
    expect(adapter.capabilities).toEqual({ idempotencyKey: false, lookup: false, receipts: false, maxPayloadBytes: 3_993 });
  });

  it('sends a reminder with a day of TTL at normal urgency', async () => {
    const { id, address } = subscription();
    expect((await send(address, { priority: 'reminder' })).outcome).toBe('delivered');
    expect(service.received.find((push) => push.subscriptionId === id)).toMatchObject({ ttl: '86400', urgency: 'normal' });
  });

  it('takes the address as the record holds it: the canonical string intake made of the subscription', async () => {
    const { id, address } = subscription();
    const stored = pushSubscriptionSchema.parse({ ...address, expirationTime: null });
    expect(typeof stored).toBe('string');
    expect((await send(stored)).outcome).toBe('delivered');
    expect(JSON.parse(service.received.find((push) => push.subscriptionId === id)!.plaintext)).toEqual(pushPayload());
  });

  it.each([
    ['not-found', 'permanent', 'http-404', true],
    ['gone', 'permanent', 'http-410', true],
    ['too-large', 'permanent', 'http-413', undefined],
    ['busy', 'transient', 'http-429', undefined],
    ['error', 'transient', 'http-500', undefined],
  ] as const)('a push service answering %s: %s (%s), addressInvalid %s', async (behaviour, outcome, errorClass, addressInvalid) => {
    const { id, address } = subscription(behaviour);
    const result = await send(address);
    expect(result).toMatchObject({ outcome, errorClass, sent: true });
    expect(result.addressInvalid).toBe(addressInvalid);
    // The service checked VAPID and decrypted the payload before answering.
    expect(service.received.some((push) => push.subscriptionId === id)).toBe(true);
  });

  it('a push service that reads the request and never answers: unknown (it may have delivered)', async () => {
    const { id, address } = subscription('stall');
    const result = await send(address);
    expect(result).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true });
    expect(service.received.some((push) => push.subscriptionId === id)).toBe(true);
  });

  it('a refused connection: transient and not sent', async () => {
    const port = await freePort();
    const { address } = subscription();
    const result = await send({ ...address, endpoint: `https://127.0.0.1:${port}/push/x` });
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'ECONNREFUSED', sent: false });
  });

  it('a VAPID key the subscription was not made for: the service refuses (403), permanent, named a configuration error', async () => {
    const other = webPush.generateVAPIDKeys();
    const stranger = new WebPushAdapter(config({ name: 'push-other', vapid: { subject, publicKey: other.publicKey, privateKey: other.privateKey } }));
    try {
      const result = await send(subscription().address, { via: stranger });
      expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'http-403', sent: true, message: expect.stringContaining('configuration error') });
      expect(service.refused).toContain('VAPID key is not the subscription applicationServerKey');
    } finally {
      await stranger.close();
    }
  });

  it(`carries ${WEB_PUSH_MAX_PAYLOAD_BYTES} payload bytes in exactly one 4096-byte record, and refuses one byte more without a call`, async () => {
    const sized = (bytes: number): RenderedMessage => {
      const push = formatPush({ title: 'T', body: 'x'.repeat(5_000) }, bytes);
      expect(push.bytes).toBe(bytes);
      return { channel: 'push', push };
    };
    const { id, address } = subscription();
    expect((await send(address, { message: sized(WEB_PUSH_MAX_PAYLOAD_BYTES) })).outcome).toBe('delivered');
    expect(service.received.find((push) => push.subscriptionId === id)?.bodyBytes).toBe(4_096);

    const before = service.requests;
    const result = await send(address, { message: sized(WEB_PUSH_MAX_PAYLOAD_BYTES + 1) });
    expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'payload-too-large', sent: false });
    expect(service.requests).toBe(before);
  });

  it('refuses without a call what is no live subscription: a device token, an expired subscription', async () => {
    const before = service.requests;
    expect(await send('fcm-device-token')).toMatchObject({ outcome: 'permanent', errorClass: 'not-a-subscription', sent: false });
    const expired = pushSubscriptionSchema.parse({ ...subscription().address, expirationTime: Date.now() - 1_000 });
    expect(await send(expired)).toMatchObject({ outcome: 'permanent', errorClass: 'subscription-expired', sent: false, addressInvalid: true });
    expect(service.requests).toBe(before);
  });

  it('never lets a secret or an address out: results carry no VAPID private key, subscription key or endpoint', () => {
    expect(results.length).toBeGreaterThan(10);
    const text = JSON.stringify(results);
    expect(text).not.toContain(vapidKeys.privateKey);
    expect(text).not.toContain(service.origin);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toMatch(/[A-Za-z0-9_-]{80,}/); // no p256dh key, no JWT
    const consoleText = JSON.stringify(printed.flatMap((spy) => spy.mock.calls));
    expect(consoleText).not.toContain(vapidKeys.privateKey);
    expect(consoleText).not.toContain(service.origin);
  });
});

describe('webPushProviderConfigSchema', () => {
  const base = { kind: 'web-push', name: 'push-web', vapid: { subject, publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey } };

  it('fills the documented defaults', () => {
    expect(webPushProviderConfigSchema.parse(base)).toMatchObject({
      channel: 'push',
      connections: 16,
      timeouts: { connectMs: 2_000, requestMs: 5_000 },
      delivery: { urgent: { ttlSeconds: 900, urgency: 'high' }, reminder: { ttlSeconds: 86_400, urgency: 'normal' } },
      tls: { rejectUnauthorized: true },
    });
  });

  it('refuses a key pair that does not match, a bad subject, a short key — naming the field, never echoing the private key', () => {
    const other = webPush.generateVAPIDKeys();
    const cases = [
      [{ ...base, vapid: { ...base.vapid, publicKey: other.publicKey } }, 'vapid.publicKey'],
      [{ ...base, vapid: { ...base.vapid, subject: 'ops@notify.example' } }, 'vapid.subject'],
      [{ ...base, vapid: { ...base.vapid, privateKey: `${vapidKeys.privateKey}AAAA` } }, 'vapid.privateKey'],
    ] as const;
    for (const [input, field] of cases) {
      const result = webPushProviderConfigSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((issue) => issue.path.join('.'))).toContain(field);
      expect(JSON.stringify(result.error!.issues)).not.toContain(vapidKeys.privateKey);
      expect(result.error!.message).not.toContain(vapidKeys.privateKey);
    }
  });
});
