import request from 'supertest';
import { notificationKey } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { Redis } from 'ioredis';
import { startHistoryPlatform, type HistoryPlatform } from '../history/history-platform';
import { simulatorControl } from '../harness/sim-control';
import { TEST_API_KEY } from '../harness/platform';
import { startReceiver, type Receiver } from '../webhooks/receiver';

/**
 * A canceled and an expired notification after their end: the tenant's webhook endpoint gets
 * `notification.canceled` and `notification.expired`, the counters count them, the archiver
 * carries both into the history, the list filters find them there, and a cancel of the archived
 * ones answers from the history (200 again, 409 expired).
 */
let running: HistoryPlatform;
let receiver: Receiver;
let secrets: string[] = [];

beforeAll(async () => {
  running = await startHistoryPlatform('cancel_expiry', {
    timeScale: 0.1,
    env: { BREAKER_ENABLED: 'false', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_DELAY_MS: '200' },
  });
  receiver = await startReceiver({ secrets: () => secrets });
});
afterAll(async () => {
  await running?.stop();
  await receiver?.close();
});

const api = () => request(running.platform.api.url);
const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const post = async (payload: object) => {
  const res = await api().post('/v1/notifications').set(auth).send(payload);
  expect(res.status).toBe(202);
  return res.body.id as string;
};
const body = (eventId: string, extra: object = {}) => ({
  eventId,
  priority: 'reminder',
  recipient: { id: `r-${eventId}`, addresses: { push: `tok-${eventId}`, sms: '+905551112230' } },
  content: { title: 'T', body: 'B' },
  ...extra,
});
const metric = async (url: string, name: string) =>
  [...(await (await fetch(url)).text()).matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\d+)`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);

it('announces, counts, archives and lists canceled and expired notifications', async () => {
  const created = await api()
    .post('/v1/webhooks')
    .set(auth)
    .send({ url: receiver.url, events: ['notification.canceled', 'notification.expired'] });
  expect(created.status).toBe(201);
  secrets = [created.body.secret as string];
  await simulatorControl(() => running.platform.sims.controlUrl).control('/control/channels/push', { transientRate: 1 });

  const canceled = await post(body('archive-cancel'));
  const expired = await post(body('archive-expire', { ttlSeconds: 1 }));
  await waitFor('a wait between steps', async () => (await api().get(`/v1/notifications/${canceled}`).set(auth)).body.status === 'retry-scheduled', 15_000, 20);
  expect((await api().delete(`/v1/notifications/${canceled}`).set(auth)).status).toBe(200);

  const events = await waitFor(
    'both events at the endpoint',
    () => {
      const types = new Map(
        receiver.verified.map((r) => JSON.parse(r.body) as { type: string; data: { id: string; status: string } }).map((e) => [e.data.id, e]),
      );
      return types.size >= 2 ? types : undefined;
    },
    20_000,
    50,
  );
  expect(events.get(canceled)).toMatchObject({ type: 'notification.canceled', data: { status: 'canceled' } });
  expect(events.get(expired)).toMatchObject({ type: 'notification.expired', data: { status: 'expired' } });
  expect(await metric(running.platform.api.metricsUrl, 'notify_notifications_canceled_total')).toBe(1);
  expect(await metric(running.platform.workers[0]!.metricsUrl, 'notify_notifications_expired_total')).toBe(1);

  // Archived: the records leave Redis once the history holds them.
  const redis = new Redis(running.platform.redis.url);
  try {
    await waitFor('both archived', async () => (await redis.exists(notificationKey(canceled), notificationKey(expired))) === 0, 20_000, 50);
  } finally {
    redis.disconnect();
  }
  const listed = async (status: string) => ((await api().get('/v1/notifications').query({ status }).set(auth)).body.items as { id: string }[]).map((i) => i.id);
  expect(await listed('canceled')).toEqual([canceled]);
  expect(await listed('expired')).toEqual([expired]);
  const archivedView = (await api().get(`/v1/notifications/${expired}`).set(auth)).body;
  expect(archivedView).toMatchObject({ status: 'expired', expiresAt: expect.any(Number), failureReason: 'its expiresAt passed before it was delivered' });
  expect((await api().delete(`/v1/notifications/${canceled}`).set(auth)).status).toBe(200);
  const again = await api().delete(`/v1/notifications/${expired}`).set(auth);
  expect(again.status).toBe(409);
  expect(again.body.error.details).toEqual([{ field: 'status', reason: 'expired' }]);
});
