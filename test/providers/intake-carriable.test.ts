import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * Intake refuses what a configured channel can never carry. With Web Push as the
 * only push provider, a device token is a 400 naming the field; a subscription is accepted.
 * The api reads only the names and kinds of PROVIDERS_FILE (no worker runs here).
 */
let platform: TestPlatform;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'intake-carriable-')), 'providers.yaml');
  writeFileSync(
    file,
    'providers:\n  - { name: push-web, kind: web-push, vapid: { subject: "mailto:ops@example.com", publicKey: "${VAPID_PUBLIC_KEY}", privateKey: "${VAPID_PRIVATE_KEY}" } }\n',
  );
  platform = await startTestPlatform({ workerCount: 0, env: { PROVIDERS_FILE: file } });
});
afterAll(async () => {
  await platform?.stop();
});

const subscription = {
  endpoint: 'https://push.example.com/send/abc',
  keys: {
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};

const post = (push: unknown, eventId: string) =>
  request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ eventId, priority: 'urgent', recipient: { id: `u-${eventId}`, addresses: { push, sms: '+905551112233' } }, content: { title: 'T', body: 'B' } });

it('a device token with only Web Push configured is a 400 naming recipient.addresses.push', async () => {
  const res = await post('device-token-123', 'carriable-token');
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_FAILED');
  expect(res.body.error.details).toEqual([{ field: 'recipient.addresses.push', reason: expect.stringMatching(/no configured push provider can carry/) }]);
});

it('a Web Push subscription is accepted', async () => {
  const res = await post(subscription, 'carriable-subscription');
  expect(res.status).toBe(202);
});
