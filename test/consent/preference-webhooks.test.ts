import request from 'supertest';
import { recipientHash, signUnsubscribeToken } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { DEV_UNSUBSCRIBE_SECRET } from '@notify/runtime';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { startReceiver, type Receiver } from '../webhooks/receiver';

/**
 * `recipient.opted_out` / `recipient.opted_in`: one signed event per changed switch, from the
 * api, a one-click link and an inbound SMS STOP (the HTTP SMS callback shape), which opts the
 * stored profiles with that number out of SMS; the next notification skips SMS.
 */
let platform: TestPlatform;
let receiver: Receiver;
let secrets: string[] = [];
const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const SMS_SECRET = 'sms-events-secret-000000000000';

beforeAll(async () => {
  platform = await startTestPlatform({
    workerCount: 1,
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20', PROVIDER_EVENT_SECRETS: `sms:${SMS_SECRET}`, CONSENT_CACHE_MS: '0' },
  });
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

it('an inbound STOP opts the stored profiles with that number out of SMS; other text changes nothing', async () => {
  const phone = '+905557770011';
  const profile = { addresses: { sms: phone, email: 'stop@example.com' }, preferences: ['sms', 'email'] };
  expect((await request(platform.api.url).put('/v1/recipients/stop-user').set(auth).send(profile)).status).toBe(201);
  const inbound = (text: string) =>
    request(platform.api.url)
      .post('/v1/providers/sms/events')
      .set('authorization', `Bearer ${SMS_SECRET}`)
      .type('form')
      .send({ MessageSid: `SM-${text}`, From: phone, To: '+15550001111', Body: text });
  expect((await inbound('hello')).body).toEqual({ status: 'ignored' });
  expect((await request(platform.api.url).get('/v1/recipients/stop-user/preferences').set(auth)).status).toBe(404);
  const bad = await request(platform.api.url)
    .post('/v1/providers/sms/events')
    .set('authorization', `Bearer ${SMS_SECRET}`)
    .type('form')
    .send({ MessageSid: 'SM-x', From: 'nope', Body: 'STOP' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'From' })]);

  expect((await inbound(' Stop ')).body).toEqual({ status: 'applied' });
  expect((await request(platform.api.url).get('/v1/recipients/stop-user/preferences').set(auth)).body).toMatchObject({ channels: { sms: false } });
  await waitFor('the sms-stop event', async () => events().some((e) => e.data.source === 'sms-stop') || undefined, 15_000, 20);

  const sent = await request(platform.api.url)
    .post('/v1/notifications')
    .set(auth)
    .send({ eventId: 'after-stop', priority: 'urgent', recipient: { id: 'stop-user' }, content: { title: 't', body: 'b' } });
  const [view] = await waitAllTerminal(platform.redis.url, [sent.body.id as string], 20_000);
  expect(view!.skips).toEqual([expect.objectContaining({ channel: 'sms', reason: 'opted-out' })]);
  expect(view!.attempts.every((a) => a.channel === 'email')).toBe(true);
});
