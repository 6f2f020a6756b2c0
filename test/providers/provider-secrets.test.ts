import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { startInProcessPlatform, type InProcessPlatform, type PlatformParts } from '@notify/platform-kit';
import { SMPP_STATUS } from '@notify/providers';
import { LoopbackFcm, LoopbackHttpSms, LoopbackPushService, LoopbackSmsc, LoopbackSmtp, type PushServiceBehaviour } from '@notify/providers/testing';
import { createLogger } from '@notify/runtime';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { loadConfig as loadApiConfig } from '../../apps/api/src/config';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { loadConfig as loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker-runtime';
import { waitAllTerminal } from '../harness/notification-poll';
import { TEST_API_KEY, TEST_TIME_SCALE } from '../harness/platform';
import { oneChannel, TURKISH, writeProvidersFile } from './real-provider-harness';

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

let smtp: LoopbackSmtp;
let smsc: LoopbackSmsc;
let pushService: LoopbackPushService;
let fcm: LoopbackFcm;
/** An HTTP SMS provider (REST shape) answering by the number's last four digits. */
let httpSms: LoopbackHttpSms;
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
  smtp = await LoopbackSmtp.start({ user: 'notify', password: SMTP_PASSWORD });
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
  pushService = await LoopbackPushService.start();
  fcm = await LoopbackFcm.start({ account: ACCOUNT });
  httpSms = await LoopbackHttpSms.start({ account: 'AC42', authToken: HTTP_SMS_TOKEN });
});

afterAll(async () => {
  await smtp?.close();
  await smsc?.close();
  await pushService?.close();
  await fcm?.close();
  await httpSms?.close();
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
  const platform = await start({
    PROVIDERS_FILE: writeProvidersFile([
      smtp.providerConfig({ socketTimeoutMs: 1000 }),
      pushService.providerConfig({ timeouts: { connectMs: 500, requestMs: 1000 } }),
      smsc.providerConfig({ timeouts: { submitMs: 1000 } }),
    ]),
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
  const platform = await start({
    PROVIDERS_FILE: writeProvidersFile([
      fcm.providerConfig({
        serviceAccount: fcm.serviceAccountJson({ private_key_id: 'k-secret-id' }),
        timeouts: { connectMs: 500, requestMs: 1000, tokenMs: 1000 },
      }),
      httpSms.providerConfig({ timeoutMs: 1000 }),
    ]),
  });
  try {
    const tokens = ['tok-secret-device-1', 'tok-unavailable', 'tok-unregistered', 'tok-stall'];
    addresses.push(tokens[0]!);
    const phones = ['0001', '0503', '0211', '0000'].map((ending) => `+9055588${ending}`);
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
  const pemLines = fcm.privatePem.split('\n').filter((line) => line.length === 64);
  const secrets = [
    SMTP_PASSWORD,
    encodeURIComponent(SMTP_PASSWORD),
    SMPP_PASSWORD,
    HTTP_SMS_TOKEN,
    Buffer.from(`AC42:${HTTP_SMS_TOKEN}`).toString('base64'),
    pushService.vapid.privateKey,
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
