import { LoopbackFcm, LoopbackPushService } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, TURKISH, waitTerminal } from './real-provider-harness';

/**
 * One push channel with two real providers of different kinds (Web Push first, FCM second): a
 * notification to a Web Push subscription goes to push-web, one to a device token goes to
 * push-fcm; neither is offered to the provider that cannot carry its address (before the gate
 * picked by address, a token went to push-web, failed permanent `not-a-subscription` and
 * suppressed the recipient's push).
 */
const ACCOUNT = { client_email: 'notify-sender@notify-mixed-1.iam.gserviceaccount.com', project_id: 'notify-mixed-1' };

let service: LoopbackPushService;
let fcm: LoopbackFcm;
let platform: TestPlatform;

beforeAll(async () => {
  service = await LoopbackPushService.start();
  fcm = await LoopbackFcm.start({ account: ACCOUNT });
  platform = await startWithProviders([
    service.providerConfig({ timeouts: { connectMs: 500, requestMs: 1500 } }),
    fcm.providerConfig({ timeouts: { connectMs: 500, requestMs: 1500, tokenMs: 1500 } }),
  ]);
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
