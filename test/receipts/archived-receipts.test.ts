import { setTimeout as delay } from 'node:timers/promises';
import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { isTerminal, type NotificationView } from '@notify/core';
import { waitAllArchived } from '../history/archiver-fixture';
import { startHistoryPlatform, type HistoryPlatform } from '../history/history-platform';
import { TEST_API_KEY, TEST_TIME_SCALE } from '../harness/platform';
import { startReceiver, type Receiver } from '../webhooks/receiver';

/**
 * A bounce that arrives after the archiver moved the notification to PostgreSQL (real bounces
 * come minutes to hours after the call) still finds it: the history row takes the status and
 * the receipt, the recipient's channel is suppressed in Redis, the tenant hears of it
 * (docs/provider-events.md, "Late events"). The real archiver, a private PostgreSQL.
 */
const EMAIL_SECRET = 'email-event-secret-0123456789';
const SMS_SECRET = 'sms-event-secret-0123456789ab';
const TENANT = 'tenant-a';
/** Ten minutes at the harness's time scale. */
const LATE_MS = 10 * 60_000 * TEST_TIME_SCALE;

let running: HistoryPlatform;
let receiver: Receiver;

beforeAll(async () => {
  running = await startHistoryPlatform('late_receipts', {
    workerCount: 1,
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    env: { PROVIDER_EVENT_SECRETS: `email:${EMAIL_SECRET},sms:${SMS_SECRET}`, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' },
  });
  receiver = await startReceiver();
  const created = await api()
    .post('/v1/webhooks')
    .send({ url: receiver.url, events: ['notification.bounced'] });
  expect(created.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await running?.stop();
  await receiver?.close();
});

function api() {
  const base = request(running.platform.api.url);
  const auth = (r: request.Test) => r.set('authorization', `Bearer ${TEST_API_KEY}`);
  return { post: (path: string) => auth(base.post(path)), get: (path: string) => auth(base.get(path)) };
}
const events = (provider: 'email' | 'sms', secret: string) =>
  request(running.platform.api.url).post(`/v1/providers/${provider}/events`).set('authorization', `Bearer ${secret}`);

let seq = 0;
async function deliver(recipientId: string, preferences: string[]): Promise<NotificationView> {
  seq += 1;
  const res = await api()
    .post('/v1/notifications')
    .send({
      eventId: `late-${Date.now()}-${seq}`,
      priority: 'urgent',
      recipient: { id: recipientId, addresses: { email: `${recipientId}@example.com`, sms: '+905551112233' }, preferences },
      content: { title: 'Merhaba', body: 'Siparişiniz yolda.' },
    });
  expect(res.status).toBe(202);
  // Read through the api (Redis, then the history): the archiver may move the record before a poll of Redis sees it end.
  return await waitFor(
    'the notification terminal',
    async () => {
      const view = (await api().get(`/v1/notifications/${res.body.id as string}`)).body as NotificationView;
      return isTerminal(view.status) ? view : undefined;
    },
    60_000,
    50,
  );
}

it('a hard bounce 10 minutes (scaled) after archival: the history row is bounced with the receipt, e-mail suppressed, notification.bounced sent', async () => {
  const sent = await deliver('late-bounce-user', ['email', 'sms']);
  expect(sent).toMatchObject({ status: 'delivered', deliveredChannel: 'email' });
  const o = { redisUrl: running.platform.redis.url, historyUrl: running.historyUrl, store: running.store, tenant: TENANT };
  const [archived] = await waitAllArchived(o, [sent.id], 60_000);
  expect(archived).toMatchObject({ status: 'delivered' });
  // The scenario is the delay itself: the bounce comes well after the record left Redis.
  await delay(LATE_MS);

  const bounce = {
    eventId: 'late-bounce-1',
    type: 'bounced',
    bounceType: 'hard',
    providerMessageId: `notify-${sent.id}`,
    detail: 'smtp; 550 5.1.1 user unknown',
  };
  const res = await events('email', EMAIL_SECRET).send(bounce);
  expect([res.status, res.body]).toEqual([200, { status: 'applied', notificationId: sent.id, notificationStatus: 'bounced' }]);

  const row = await running.store.get(TENANT, sent.id);
  expect(row).toMatchObject({ status: 'bounced', failureReason: 'hard-bounce', deliveredChannel: 'email' });
  expect(row!.attempts[0]).toMatchObject({ outcome: 'delivered', receipt: 'bounced', receiptDetail: 'smtp; 550 5.1.1 user unknown' });
  expect(row!.attempts[0]!.receipts).toEqual([expect.objectContaining({ kind: 'bounced', bounceType: 'hard' })]);
  expect((await api().get(`/v1/notifications/${sent.id}`)).body).toMatchObject({ status: 'bounced' });

  await waitFor(
    'notification.bounced at the receiver',
    () => receiver.requests.some((r) => (JSON.parse(r.body) as { type: string; data: { id: string; status: string } }).data.id === sent.id) || undefined,
    20_000,
    50,
  );
  const event = receiver.requests.map((r) => JSON.parse(r.body) as { type: string; data: NotificationView }).find((e) => e.data.id === sent.id);
  expect(event).toMatchObject({ type: 'notification.bounced', data: { status: 'bounced' } });

  // The next notification to that recipient skips the suppressed e-mail channel.
  const next = await deliver('late-bounce-user', ['email', 'sms']);
  expect(next).toMatchObject({ status: 'delivered', deliveredChannel: 'sms' });
  expect(next.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'suppressed' })]);
  // The tenant's suppression list shows it, with its reason.
  expect((await api().get('/v1/suppressions?channel=email')).body.items).toEqual([
    expect.objectContaining({ recipientId: 'late-bounce-user', channel: 'email', reason: 'bounce' }),
  ]);

  // The same event again is one change; through another provider's path it finds nothing of that provider.
  expect((await events('email', EMAIL_SECRET).send(bounce)).body).toEqual({ status: 'duplicate', notificationId: sent.id });
  expect((await events('sms', SMS_SECRET).send(bounce)).body).toEqual({ status: 'unmatched' });
  expect((await running.store.get(TENANT, sent.id))!.attempts[0]!.receipts).toHaveLength(1);
}, 120_000);

it('an event for an archived notification another provider sent is unmatched, and the row is unchanged', async () => {
  const sent = await deliver('late-forged-user', ['email']);
  const o = { redisUrl: running.platform.redis.url, historyUrl: running.historyUrl, store: running.store, tenant: TENANT };
  await waitAllArchived(o, [sent.id], 60_000);
  const res = await events('sms', SMS_SECRET).send({ eventId: 'late-forged', type: 'complained', providerMessageId: `notify-${sent.id}` });
  expect([res.status, res.body]).toEqual([202, { status: 'unmatched' }]);
  expect(await running.store.get(TENANT, sent.id)).toMatchObject({ status: 'delivered' });
}, 120_000);
