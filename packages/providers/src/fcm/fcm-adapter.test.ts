import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatPush, renderForChannel, type Priority, type RenderedMessage } from '@notify/core';
import { freePort } from '@notify/platform-kit';
import type { SendResult } from '../adapter';
import { LoopbackFcm } from '../testing';
import { fcmProviderConfigSchema, type FcmProviderConfigInput } from './config';
import { FCM_MAX_PAYLOAD_BYTES, FcmAdapter } from './fcm-adapter';

const rendered = renderForChannel(
  'push',
  {
    title: 'Randevu hatırlatması',
    body: 'Yarın 09:30 — Dr. Öztürk, İstanbul şubesi.',
    overrides: { push: { data: { appointmentId: 'a-7', kind: 'reminder' } } },
  },
  { smsMaxSegments: 10 },
);

let peer: LoopbackFcm;
let adapter: FcmAdapter;
let clock = Date.now();
const results: SendResult[] = [];
const adapters: FcmAdapter[] = [];

const serviceAccountJson = (overrides: Record<string, unknown> = {}) => peer.serviceAccountJson(overrides);

function newAdapter(overrides: Partial<FcmProviderConfigInput> = {}): FcmAdapter {
  const made = new FcmAdapter(peer.providerConfig({ timeouts: { connectMs: 250, requestMs: 600, tokenMs: 600 }, ...overrides }), { now: () => clock });
  adapters.push(made);
  return made;
}

async function send(to: string, options: { priority?: Priority; message?: RenderedMessage; via?: FcmAdapter } = {}): Promise<SendResult> {
  const result = await (options.via ?? adapter).send({
    notificationId: 'n-1',
    idempotencyKey: 'k-1',
    to,
    message: options.message ?? rendered,
    priority: options.priority ?? 'urgent',
  });
  results.push(result);
  return result;
}

/** Whatever the adapters or the libraries they use print (nothing is expected): checked for secrets at the end. */
const printed: jest.SpyInstance[] = [];

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) printed.push(jest.spyOn(console, method));
  peer = await LoopbackFcm.start({ now: () => clock });
  adapter = newAdapter();
});

afterAll(async () => {
  for (const spy of printed) spy.mockRestore();
  await Promise.all(adapters.map((made) => made.close()));
  await peer.close();
});

describe('FCM HTTP v1 adapter against a loopback token endpoint and messages:send', () => {
  it('gets a token with a verified RS256 assertion and delivers the rendered push with HIGH / 10 priority for an urgent notification', async () => {
    const result = await send('tok-device-1');
    expect(result).toMatchObject({ outcome: 'delivered', sent: true, providerMessageId: expect.stringMatching(/^projects\/notify-test-1\/messages\/0:/) });
    expect(peer.refused).toEqual([]);
    expect(peer.received.at(-1)).toEqual({
      project: 'notify-test-1',
      message: {
        token: 'tok-device-1',
        notification: { title: 'Randevu hatırlatması', body: 'Yarın 09:30 — Dr. Öztürk, İstanbul şubesi.' },
        data: { appointmentId: 'a-7', kind: 'reminder' },
        android: { priority: 'HIGH', ttl: '900s' },
        apns: { headers: { 'apns-priority': '10', 'apns-expiration': String(Math.floor(clock / 1000) + 900) } },
      },
    });
    expect(adapter.capabilities).toEqual({ idempotencyKey: false, lookup: false, receipts: false, maxPayloadBytes: 4_096 });
  });

  it('a reminder goes NORMAL / 5 with a day of TTL', async () => {
    expect((await send('tok-device-2', { priority: 'reminder' })).outcome).toBe('delivered');
    expect(peer.received.at(-1)?.message).toMatchObject({ android: { priority: 'NORMAL', ttl: '86400s' }, apns: { headers: { 'apns-priority': '5' } } });
  });

  it('caches the access token until shortly before it expires; concurrent sends share one token request', async () => {
    const fresh = newAdapter({ name: 'push-fcm-cache', tokenRefreshMarginSeconds: 300 });
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => send(`tok-c-${i}`, { via: fresh })));
    expect(outcomes.map((r) => r.outcome)).toEqual(Array(8).fill('delivered'));
    expect(fresh.tokenRequests).toBe(1);
    clock += (3_600 - 301) * 1_000; // 301 s before expiry: still used
    expect((await send('tok-c-8', { via: fresh })).outcome).toBe('delivered');
    expect(fresh.tokenRequests).toBe(1);
    clock += 2_000; // 299 s before expiry: replaced
    expect((await send('tok-c-9', { via: fresh })).outcome).toBe('delivered');
    expect(fresh.tokenRequests).toBe(2);
  });

  it('a revoked access token: one 401, a new token, the message sent again once and delivered', async () => {
    expect((await send('tok-r-1')).outcome).toBe('delivered');
    const tokens = adapter.tokenRequests;
    const sends = peer.sendRequests;
    peer.revokeTokens();
    expect(await send('tok-r-2')).toMatchObject({ outcome: 'delivered', sent: true });
    expect(adapter.tokenRequests).toBe(tokens + 1);
    expect(peer.sendRequests).toBe(sends + 2);
  });

  it.each([
    ['tok-unregistered', 'permanent', 'UNREGISTERED', true],
    ['tok-invalid', 'permanent', 'INVALID_ARGUMENT', undefined],
    ['tok-mismatch', 'permanent', 'SENDER_ID_MISMATCH', undefined],
    ['tok-thirdparty', 'permanent', 'THIRD_PARTY_AUTH_ERROR', undefined],
    ['tok-unavailable', 'transient', 'UNAVAILABLE', undefined],
    ['tok-internal', 'transient', 'INTERNAL', undefined],
    ['tok-quota', 'transient', 'QUOTA_EXCEEDED', undefined],
  ] as const)('FCM answering %s: %s (%s)', async (token, outcome, errorClass, addressInvalid) => {
    const tokens = adapter.tokenRequests;
    const result = await send(token);
    expect(result).toMatchObject({ outcome, errorClass, sent: true });
    expect(result.addressInvalid).toBe(addressInvalid);
    if (errorClass === 'SENDER_ID_MISMATCH' || errorClass === 'THIRD_PARTY_AUTH_ERROR') expect(result.message).toMatch(/^configuration error/);
    expect(adapter.tokenRequests).toBe(tokens); // a 401 THIRD_PARTY_AUTH_ERROR is no reason for a new token
  });

  it('FCM reading the message and never answering: unknown (it may have delivered)', async () => {
    expect(await send('tok-stall')).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true });
  });

  it('FCM refusing connections: transient, not sent', async () => {
    const port = await freePort();
    const offline = newAdapter({ name: 'push-fcm-off', apiBaseUrl: `http://127.0.0.1:${port}` });
    expect(await send('tok-device-3', { via: offline })).toMatchObject({ outcome: 'transient', errorClass: 'ECONNREFUSED', sent: false });
  });

  it('a token endpoint that is down or refuses the grant sends no message: transient / permanent configuration error, not sent', async () => {
    const sends = peer.sendRequests;
    peer.tokenStatus = 503;
    try {
      expect(await send('tok-t-1', { via: newAdapter({ name: 'push-fcm-t1' }) })).toMatchObject({
        outcome: 'transient',
        errorClass: 'oauth-http-503',
        sent: false,
      });
    } finally {
      peer.tokenStatus = undefined;
    }
    const port = await freePort();
    expect(await send('tok-t-2', { via: newAdapter({ name: 'push-fcm-t2', tokenUrl: `http://127.0.0.1:${port}/token` }) })).toMatchObject({
      outcome: 'transient',
      errorClass: 'oauth-ECONNREFUSED',
      sent: false,
    });
    // Another key than the service account's: the assertion does not verify.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const refused = await send('tok-t-3', { via: newAdapter({ name: 'push-fcm-t3', serviceAccount: serviceAccountJson({ private_key: stranger }) }) });
    expect(refused).toMatchObject({
      outcome: 'permanent',
      errorClass: 'oauth-invalid_grant',
      sent: false,
      message: expect.stringMatching(/^configuration error/),
    });
    expect(peer.sendRequests).toBe(sends);
  });

  it(`refuses a payload over ${FCM_MAX_PAYLOAD_BYTES} bytes and a Web Push subscription without a call`, async () => {
    const sends = peer.sendRequests;
    const big: RenderedMessage = { channel: 'push', push: formatPush({ title: 'T', body: 'x'.repeat(5_000) }, FCM_MAX_PAYLOAD_BYTES + 10) };
    expect(await send('tok-big', { message: big })).toMatchObject({ outcome: 'permanent', errorClass: 'payload-too-large', sent: false });
    expect(await send('{"endpoint":"https://push.example/x","keys":{"p256dh":"a","auth":"b"}}')).toMatchObject({
      outcome: 'permanent',
      errorClass: 'not-a-device-token',
      sent: false,
    });
    expect(peer.sendRequests).toBe(sends);
  });

  it('reads the service account from a file as well', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fcm-sa-'));
    try {
      const file = join(dir, 'service-account.json');
      writeFileSync(file, serviceAccountJson(), { mode: 0o600 });
      expect((await send('tok-file', { via: newAdapter({ name: 'push-fcm-file', serviceAccount: file }) })).outcome).toBe('delivered');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never lets a secret out: no private key, access token or device token in any result', () => {
    expect(results.length).toBeGreaterThan(20);
    const text = JSON.stringify(results);
    expect(peer.tokensIssued.length).toBeGreaterThan(2);
    for (const token of peer.tokensIssued) expect(text).not.toContain(token);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(peer.privatePem.split('\n')[1]);
    expect(text).not.toContain('tok-');
    const consoleText = JSON.stringify(printed.flatMap((spy) => spy.mock.calls));
    for (const token of peer.tokensIssued) expect(consoleText).not.toContain(token);
    expect(consoleText).not.toContain('PRIVATE KEY');
  });
});

describe('fcmProviderConfigSchema', () => {
  it('fills the documented defaults', () => {
    const parsed = fcmProviderConfigSchema.parse({ kind: 'fcm', name: 'push-fcm', serviceAccount: serviceAccountJson() });
    expect(parsed).toMatchObject({
      channel: 'push',
      apiBaseUrl: 'https://fcm.googleapis.com',
      connections: 16,
      timeouts: { connectMs: 2_000, requestMs: 5_000, tokenMs: 5_000 },
      tokenRefreshMarginSeconds: 300,
      delivery: {
        urgent: { androidPriority: 'HIGH', apnsPriority: '10', ttlSeconds: 900 },
        reminder: { androidPriority: 'NORMAL', apnsPriority: '5', ttlSeconds: 86_400 },
      },
    });
    expect(parsed.tokenUrl).toBeUndefined();
  });

  it.each([
    ['not JSON', () => `{${peer.privatePem}`, 'not valid JSON'],
    ['a broken key', () => serviceAccountJson({ private_key: peer.privatePem.replace(/\n[A-Za-z0-9+/]{10}/, '\n') }), 'not an RSA private key'],
    ['no client_email', () => serviceAccountJson({ client_email: undefined }), 'client_email'],
    ['a missing file', '/nonexistent/sa.json', 'cannot read the service-account file (ENOENT)'],
  ])('refuses a service account that is %s, naming the field and never echoing the key', (_, value, reason) => {
    const serviceAccount = typeof value === 'function' ? value() : value;
    const result = fcmProviderConfigSchema.safeParse({ kind: 'fcm', name: 'push-fcm', serviceAccount });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([expect.objectContaining({ path: ['serviceAccount'], message: expect.stringContaining(reason) })]);
    const text = `${JSON.stringify(result.error!.issues)} ${result.error!.message}`;
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(peer.privatePem.split('\n')[2]);
  });

  it('refuses an http API or token URL off loopback (a bearer token in clear)', () => {
    const result = fcmProviderConfigSchema.safeParse({
      kind: 'fcm',
      name: 'push-fcm',
      serviceAccount: serviceAccountJson(),
      apiBaseUrl: 'http://fcm.example.com',
      tokenUrl: 'http://oauth.example.com/token',
    });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['apiBaseUrl', 'tokenUrl']);
  });
});
