import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import webPush from 'web-push';
import { startInProcessPlatform, type InProcessPlatform, type PlatformParts } from '@notify/platform-kit';
import { createLogger } from '@notify/runtime';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { loadConfig as loadApiConfig } from '../../apps/api/src/config';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { loadConfig as loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker-runtime';
import { LoopbackFcm } from '../../packages/providers/src/fcm/loopback-fcm';
import { SMPP_STATUS } from '../../packages/providers/src/smpp/command-status';
import { LoopbackSmsc } from '../../packages/providers/src/smpp/loopback-smsc';
import { LoopbackPushService, type PushServiceBehaviour } from '../../packages/providers/src/web-push/loopback-push-service';
import { waitAllTerminal } from '../harness/notification-poll';
import { TEST_API_KEY, TEST_TIME_SCALE } from '../harness/platform';
import { oneChannel, SmtpPeer, TURKISH, writeProvidersFile } from './real-provider-harness';

/**
 * No secret (SMTP password, VAPID private key, service-account key, SMPP password) and no
 * recipient address in what the platform shows: the api's and the worker's logs (the apps' own
 * redacting logger at trace level), whatever the process prints (console, stdout, stderr), the
 * metrics of both, the status API and error answers — across delivered, transient, permanent and
 * unknown sends on real adapters against loopback peers (and the HTTP SMS auth token). Two platforms: a push channel routes by
 * order, so Web Push and FCM each need their own (see the report on mixed push providers).
 */
const SMTP_PASSWORD = 'Smtp-S3cret-Pass-71q';
const SMPP_PASSWORD = 'Sm9pQw2x';
const HTTP_SMS_TOKEN = 'HttpSms-AuthToken-S3cret-42';
const vapid = webPush.generateVAPIDKeys();
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const ACCOUNT = { client_email: 'notify-sender@notify-secrets-1.iam.gserviceaccount.com', project_id: 'notify-secrets-1' };

/** Every line the apps logged, and everything printed while the platforms ran. */
const logged: string[] = [];
const printed: string[] = [];
const shown: string[] = [];

const capture = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    logged.push(chunk.toString());
    callback();
  },
});

type Platform = InProcessPlatform<RunningSimulators, RunningApi, RunningWorker>;
const silent = pino({ level: 'silent' });
const PARTS: PlatformParts<RunningSimulators, RunningApi, RunningWorker> = {
  startSimulators: (env) => startSimulators(loadSimConfig(env), silent),
  startApi: (env, gate) => startApi(loadApiConfig(env), createLogger('api', 'trace', capture), gate ? { gate } : {}),
  startWorker: (env, gate) => startWorker(loadWorkerConfig(env), createLogger('worker', 'trace', capture), gate ? { gate } : {}),
};
const start = (env: Record<string, string>): Promise<Platform> =>
  startInProcessPlatform(PARTS, { apiKeys: `${TEST_API_KEY}:tenant-a`, timeScale: TEST_TIME_SCALE, env: { ...env, LOG_LEVEL: 'trace' } });

let smtp: SmtpPeer;
let smsc: LoopbackSmsc;
let pushService: LoopbackPushService;
let fcm: LoopbackFcm;
/** An HTTP SMS provider (REST shape) answering by the number's last digit: 1 sid, 2 503, 3 invalid number, 4 never. */
let httpSms: Server;
const httpStalled: ServerResponse[] = [];
const addresses: string[] = [];
const spies: jest.SpyInstance[] = [];

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    spies.push(jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' '))));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    spies.push(
      jest.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
        printed.push(String(chunk));
        return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      }),
    );
  }
  smtp = await SmtpPeer.start('notify', SMTP_PASSWORD);
  smsc = await LoopbackSmsc.start({
    systemId: 'notify',
    password: SMPP_PASSWORD,
    onSubmit: (submit) => {
      const last = submit.destinationAddr.at(-1);
      if (last === '2') return { answer: 'now', status: SMPP_STATUS.ESME_RTHROTTLED };
      if (last === '3') return { answer: 'now', status: SMPP_STATUS.ESME_RINVDSTADR };
      if (last === '4') return { answer: 'never' };
      return { answer: 'now' };
    },
  });
  pushService = await LoopbackPushService.start({ subject: 'mailto:ops@notify.example', publicKey: vapid.publicKey });
  fcm = await LoopbackFcm.start(createPublicKey(PRIVATE_PEM), ACCOUNT);
  httpSms = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const to = new URLSearchParams(raw).get('To') ?? '';
      const json = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Basic ${Buffer.from(`AC42:${HTTP_SMS_TOKEN}`).toString('base64')}`) return json(401, { code: 20003 });
      if (to.endsWith('2')) return json(503, { code: 20503, message: 'Service unavailable' });
      if (to.endsWith('3')) return json(400, { code: 21211, message: `The 'To' number ${to} is not a valid phone number.` });
      if (to.endsWith('4')) return void httpStalled.push(res);
      json(201, { sid: `SM${Date.now()}`, to });
    });
  });
  httpSms.listen(0, '127.0.0.1');
  await once(httpSms, 'listening');
});

afterAll(async () => {
  await smtp?.close();
  await smsc?.close();
  await pushService?.close();
  await fcm?.close();
  for (const res of httpStalled) res.destroy();
  httpSms?.closeAllConnections();
  await new Promise<void>((resolve) => (httpSms ? httpSms.close(() => resolve()) : resolve()));
  for (const spy of spies) spy.mockRestore();
});

const post = (body: unknown) =>
  request(PLATFORM!.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send(body as object);
let PLATFORM: Platform | undefined;

/** Posts the notifications, waits for them all, and keeps every answer, status and metrics text the platform showed. */
async function runAndCollect(platform: Platform, bodies: unknown[]): Promise<string[]> {
  PLATFORM = platform;
  const ids: string[] = [];
  for (const body of bodies) {
    const res = await post(body);
    shown.push(JSON.stringify(res.body), JSON.stringify(res.headers));
    expect(res.status).toBe(202);
    ids.push((res.body as { id: string }).id);
  }
  const views = await waitAllTerminal(platform.redis.url, ids, 60_000);
  for (const id of ids) {
    const res = await request(platform.api.url).get(`/v1/notifications/${id}`).set('authorization', `Bearer ${TEST_API_KEY}`);
    expect(res.status).toBe(200);
    shown.push(JSON.stringify(res.body));
  }
  // Error answers: refused intake naming bad addresses, an unknown id, a bad key.
  const badEmail = 'not-an-address.secret-user@';
  const badPhone = '+90555-SECRET';
  addresses.push(badEmail, badPhone);
  for (const bad of [
    oneChannel('email', 'bad-1', 'bad-user', badEmail, TURKISH),
    oneChannel('sms', 'bad-2', 'bad-user', badPhone, TURKISH),
    oneChannel('push', 'bad-3', 'bad-user', { endpoint: 'https://push.example/secret-endpoint-77', keys: { p256dh: 'AAAA', auth: 'BBBB' } }, TURKISH),
  ]) {
    const res = await post(bad);
    expect(res.status).toBe(400);
    shown.push(JSON.stringify(res.body));
  }
  addresses.push('https://push.example/secret-endpoint-77');
  shown.push(
    JSON.stringify(
      (
        await request(platform.api.url)
          .get(`/v1/notifications/${'0'.repeat(32)}`)
          .set('authorization', `Bearer ${TEST_API_KEY}`)
      ).body,
    ),
  );
  shown.push(
    JSON.stringify((await request(platform.api.url).get(`/v1/notifications/${ids[0]}`).set('authorization', 'Bearer wrong-key-0000000000000000000000')).body),
  );
  shown.push(await (await fetch(platform.workers[0]!.metricsUrl)).text(), await (await fetch(platform.api.metricsUrl)).text());
  return views.map((v) => v.status);
}

it('SMTP, Web Push and SMPP: delivered, transient, permanent and unknown sends show no password, VAPID private key or address', async () => {
  const file = writeProvidersFile([
    '  - kind: smtp',
    '    name: email-smtp',
    '    url: "smtp://notify:${SMTP_PASSWORD}@127.0.0.1:${SMTP_PORT}"',
    '    from: "Bildirim <bildirim@notify.example>"',
    '    socketTimeoutMs: 1000',
    '  - kind: web-push',
    '    name: push-web',
    '    vapid: { subject: "mailto:ops@notify.example", publicKey: "${VAPID_PUBLIC_KEY}", privateKey: "${VAPID_PRIVATE_KEY}" }',
    '    timeouts: { connectMs: 500, requestMs: 1000 }',
    '    tls: { ca: "${PUSH_CA}" }',
    '  - kind: smpp',
    '    name: sms-smpp',
    '    url: "smpp://notify:${SMPP_PASSWORD}@127.0.0.1:${SMPP_PORT}"',
    '    sourceAddr: Notify',
    '    timeouts: { submitMs: 1000 }',
  ]);
  const platform = await start({
    PROVIDERS_FILE: file,
    SMTP_PASSWORD,
    SMTP_PORT: String(smtp.port),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_CA: pushService.ca,
    SMPP_PASSWORD,
    SMPP_PORT: String(smsc.port),
  });
  try {
    const bodies: unknown[] = [];
    ['ok', 'busy', 'gone', 'stall'].forEach((kind, i) => {
      const email = `${kind}.secret${i}@example.com`;
      const phone = `+90555777000${i + 1}`;
      const behaviour = (['accept', 'error', 'gone', 'stall'] as PushServiceBehaviour[])[i]!;
      const { id: _id, ...subscription } = pushService.subscribe(behaviour);
      addresses.push(email, phone, phone.slice(1), subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth);
      bodies.push(oneChannel('email', `sec-email-${i}`, `sec-email-user-${i}`, email, TURKISH));
      bodies.push(oneChannel('sms', `sec-sms-${i}`, `sec-sms-user-${i}`, phone, TURKISH));
      bodies.push(oneChannel('push', `sec-push-${i}`, `sec-push-user-${i}`, subscription, TURKISH));
    });
    const statuses = await runAndCollect(platform, bodies);
    // Every kind of outcome happened: delivered, failed (transient, permanent) and unconfirmed (unknown) on each adapter.
    expect([...new Set(statuses)].sort()).toEqual(['delivered', 'failed', 'unconfirmed']);
    expect(smtp.received.length).toBeGreaterThanOrEqual(2);
    expect(smsc.submits.length).toBeGreaterThanOrEqual(4);
    expect(pushService.received.length).toBeGreaterThanOrEqual(4);
  } finally {
    await platform.stop();
  }
});

it('FCM and HTTP SMS: delivered, transient, permanent and unknown sends show no service-account key, access token, auth token or address', async () => {
  const serviceAccount = JSON.stringify({
    type: 'service_account',
    ...ACCOUNT,
    private_key_id: 'k-secret-id',
    private_key: PRIVATE_PEM,
    token_uri: fcm.tokenUrl,
  });
  const file = writeProvidersFile([
    '  - kind: fcm',
    '    name: push-fcm',
    '    serviceAccount: "${FCM_SERVICE_ACCOUNT}"',
    '    apiBaseUrl: "${FCM_BASE_URL}"',
    '    timeouts: { connectMs: 500, requestMs: 1000, tokenMs: 1000 }',
    '  - kind: http-sms',
    '    name: sms-http',
    '    baseUrl: "http://127.0.0.1:${SMS_HTTP_PORT}"',
    '    account: AC42',
    '    authToken: "${SMS_HTTP_TOKEN}"',
    '    from: NOTIFY',
    '    timeoutMs: 1000',
  ]);
  const platform = await start({
    PROVIDERS_FILE: file,
    FCM_SERVICE_ACCOUNT: serviceAccount,
    FCM_BASE_URL: fcm.baseUrl,
    SMS_HTTP_PORT: String((httpSms.address() as AddressInfo).port),
    SMS_HTTP_TOKEN: HTTP_SMS_TOKEN,
  });
  try {
    const tokens = ['tok-secret-device-1', 'tok-unavailable', 'tok-unregistered', 'tok-stall'];
    addresses.push(tokens[0]!);
    const phones = [1, 2, 3, 4].map((digit) => `+90555888000${digit}`);
    addresses.push(...phones, ...phones.map((p) => p.slice(1)));
    const statuses = await runAndCollect(platform, [
      ...tokens.map((token, i) => oneChannel('push', `sec-fcm-${i}`, `sec-fcm-user-${i}`, token, TURKISH)),
      ...phones.map((phone, i) => oneChannel('sms', `sec-http-${i}`, `sec-http-user-${i}`, phone, TURKISH)),
    ]);
    expect([...new Set(statuses)].sort()).toEqual(['delivered', 'failed', 'unconfirmed']);
    expect(fcm.tokensIssued.length).toBeGreaterThanOrEqual(1);
  } finally {
    await platform.stop();
  }
});

it('nothing logged, printed or shown carries a secret or an address', () => {
  const pemLines = PRIVATE_PEM.split('\n').filter((line) => line.length === 64);
  const secrets = [
    SMTP_PASSWORD,
    encodeURIComponent(SMTP_PASSWORD),
    SMPP_PASSWORD,
    HTTP_SMS_TOKEN,
    Buffer.from(`AC42:${HTTP_SMS_TOKEN}`).toString('base64'),
    vapid.privateKey,
    ...pemLines.slice(1, 4),
    ...fcm.tokensIssued,
    ...addresses,
  ];
  expect(logged.length).toBeGreaterThan(10);
  expect(shown.length).toBeGreaterThan(20);
  const corpus = { logged: logged.join('\n'), printed: printed.join('\n'), shown: shown.join('\n') };
  // What was collected is the real thing: both apps' log lines, the records with their providers, both metrics texts.
  expect(corpus.logged).toContain('"app":"worker"');
  expect(corpus.logged).toContain('"app":"api"');
  for (const provider of ['email-smtp', 'push-web', 'sms-smpp', 'push-fcm', 'sms-http', 'sec-email-user-0']) expect(corpus.shown).toContain(provider);
  expect(corpus.shown).toContain('notify_notifications_total');
  expect(corpus.shown).toContain('notify_intake_requests_total');
  for (const [where, text] of Object.entries(corpus)) {
    const found = secrets.filter((secret) => text.includes(secret));
    expect({ where, found }).toEqual({ where, found: [] });
  }
});
