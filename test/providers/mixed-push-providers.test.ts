import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import webPush from 'web-push';
import { LoopbackFcm } from '../../packages/providers/src/fcm/loopback-fcm';
import { LoopbackPushService } from '../../packages/providers/src/web-push/loopback-push-service';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, TURKISH, waitTerminal, writeProvidersFile } from './real-provider-harness';

/**
 * One push channel with two real providers of different kinds (Web Push first, FCM second): a
 * notification to a Web Push subscription goes to push-web, one to a device token goes to
 * push-fcm; neither is offered to the provider that cannot carry its address (before the gate
 * picked by address, a token went to push-web, failed permanent `not-a-subscription` and
 * suppressed the recipient's push).
 */
const vapid = webPush.generateVAPIDKeys();
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const ACCOUNT = { client_email: 'notify-sender@notify-mixed-1.iam.gserviceaccount.com', project_id: 'notify-mixed-1' };

let service: LoopbackPushService;
let fcm: LoopbackFcm;
let platform: TestPlatform;

beforeAll(async () => {
  service = await LoopbackPushService.start({ subject: 'mailto:ops@notify.example', publicKey: vapid.publicKey });
  fcm = await LoopbackFcm.start(createPublicKey(PRIVATE_PEM), ACCOUNT);
  const file = writeProvidersFile([
    '  - kind: web-push',
    '    name: push-web',
    '    vapid: { subject: "mailto:ops@notify.example", publicKey: "${VAPID_PUBLIC_KEY}", privateKey: "${VAPID_PRIVATE_KEY}" }',
    '    timeouts: { connectMs: 500, requestMs: 1500 }',
    '    tls: { ca: "${PUSH_CA}" }',
    '  - kind: fcm',
    '    name: push-fcm',
    '    serviceAccount: "${FCM_SERVICE_ACCOUNT}"',
    '    apiBaseUrl: "${FCM_BASE_URL}"',
    '    timeouts: { connectMs: 500, requestMs: 1500, tokenMs: 1500 }',
  ]);
  platform = await startTestPlatform({
    workerCount: 1,
    env: {
      PROVIDERS_FILE: file,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_CA: service.ca,
      FCM_SERVICE_ACCOUNT: JSON.stringify({ type: 'service_account', ...ACCOUNT, private_key: PRIVATE_PEM, token_uri: fcm.tokenUrl }),
      FCM_BASE_URL: fcm.baseUrl,
    },
  });
});

afterAll(async () => {
  await platform?.stop();
  await service?.close();
  await fcm?.close();
});

it('a subscription goes to push-web and a device token to push-fcm, each delivered on its first call', async () => {
  const { id: sub, ...subscription } = service.subscribe('accept');
  const [webId, fcmId] = await Promise.all([
    postNotification(platform.api.url, oneChannel('push', 'mixed-web', 'mixed-user-web', subscription, TURKISH)),
    postNotification(platform.api.url, oneChannel('push', 'mixed-fcm', 'mixed-user-fcm', 'tok-mixed-device', TURKISH)),
  ]);
  const [web, token] = await Promise.all([waitTerminal(platform.redis.url, webId), waitTerminal(platform.redis.url, fcmId)]);
  expect(web.status).toBe('delivered');
  expect(web.attempts.map((a) => [a.provider, a.outcome])).toEqual([['push-web', 'delivered']]);
  expect(token.status).toBe('delivered');
  expect(token.attempts.map((a) => [a.provider, a.outcome])).toEqual([['push-fcm', 'delivered']]);
  expect(service.received.filter((r) => r.subscriptionId === sub)).toHaveLength(1);
  expect(fcm.received.map((r) => r.message.token)).toEqual(['tok-mixed-device']);
  // Nothing reached the provider that cannot carry the address: the push service saw one request, FCM one send.
  expect(service.requests).toBe(1);
  expect(fcm.sendRequests).toBe(1);
});
