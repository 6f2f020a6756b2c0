import request from 'supertest';
import { recipientHash, signUnsubscribeToken } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { DEV_UNSUBSCRIBE_SECRET } from '@notify/runtime';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { startReceiver, type Receiver } from '../webhooks/receiver';

/** `recipient.opted_out` / `recipient.opted_in`: one signed event per changed switch, from the api and from a one-click link. */
let platform: TestPlatform;
let receiver: Receiver;
let secrets: string[] = [];
const auth = { authorization: `Bearer ${TEST_API_KEY}` };

beforeAll(async () => {
  platform = await startTestPlatform({ workerCount: 1, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' } });
  receiver = await startReceiver({ secrets: () => secrets });
  const created = await request(platform.api.url)
    .post('/v1/webhooks')
    .set(auth)
    .send({ url: receiver.url, events: ['recipient.opted_out', 'recipient.opted_in'] });
  expect(created.status).toBe(201);
  secrets = [created.body.secret as string];
});

afterAll(async () => {
  await receiver?.close();
  await platform?.stop();
});

const events = () => receiver.verified.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });

it('tells the tenant of every switch a PUT changed, and of a one-click unsubscribe once', async () => {
  const put = (body: object) => request(platform.api.url).put('/v1/recipients/hook-user/preferences').set(auth).send(body);
  expect((await put({ channels: { sms: false } })).status).toBe(200);
  expect((await put({ channels: { sms: false } })).status).toBe(200); // no change: no event
  expect((await put({ channels: { sms: true } })).status).toBe(200);
  const token = signUnsubscribeToken(
    { tenant: 'tenant-a', rh: recipientHash('tenant-a', 'hook-user'), category: 'default', channel: 'email', expiresAt: Math.floor(Date.now() / 1000) + 600 },
    [DEV_UNSUBSCRIBE_SECRET],
  );
  for (let i = 0; i < 2; i += 1) expect((await request(platform.api.url).post(`/u/${token}`)).status).toBe(200);

  await waitFor('three events', async () => events().length >= 3 || undefined, 15_000, 20);
  const rh = recipientHash('tenant-a', 'hook-user');
  const got = events().map((e) => [e.type, e.data.category, e.data.channel, e.data.source, e.data.recipientId ?? null, e.data.recipientHash]);
  expect(got).toEqual(
    expect.arrayContaining([
      ['recipient.opted_out', '*', 'sms', 'api', 'hook-user', rh],
      ['recipient.opted_in', '*', 'sms', 'api', 'hook-user', rh],
      ['recipient.opted_out', 'default', 'email', 'one-click', null, rh],
    ]),
  );
  expect(got).toHaveLength(3);
});
