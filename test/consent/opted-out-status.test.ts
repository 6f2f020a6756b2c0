import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { simulatorControl } from '../harness/sim-control';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { notifyInCategory } from './category-notification';

/**
 * A recipient opted out of every channel of an optional category: the notification ends
 * `opted-out` through the real pipeline, with no provider call, counted apart from the delivery
 * outcomes (never as failed), and announced as `notification.opted_out`.
 */
let platform: TestPlatform;
let receiver: Receiver;
let secrets: string[] = [];
const auth = { authorization: `Bearer ${TEST_API_KEY}` };

beforeAll(async () => {
  platform = await startTestPlatform({ workerCount: 1, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20', CONSENT_CACHE_MS: '0' } });
  receiver = await startReceiver({ secrets: () => secrets });
  const created = await request(platform.api.url)
    .post('/v1/webhooks')
    .set(auth)
    .send({ url: receiver.url, events: ['notification.opted_out', 'notification.failed'] });
  expect(created.status).toBe(201);
  secrets = [created.body.secret as string];
});

afterAll(async () => {
  await receiver?.close();
  await platform?.stop();
});

async function counted(name: string, filter = ''): Promise<number> {
  const text = await (await fetch(platform.workers[0]!.metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes(filter))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

it('ends opted-out with no provider call, not counted as failed, and tells the tenant', async () => {
  const api = () => request(platform.api.url);
  expect((await api().put('/v1/categories/marketing').set(auth).send({ name: 'Marketing' })).status).toBe(201);
  const closed = { push: false, sms: false, email: false };
  expect(
    (
      await api()
        .put('/v1/recipients/quiet-user/preferences')
        .set(auth)
        .send({ categories: { marketing: closed } })
    ).status,
  ).toBe(200);
  const recipient = { id: 'quiet-user', addresses: { push: 'tok-quiet', sms: '+905551110000', email: 'quiet@example.com' } };
  const sims = simulatorControl(() => platform.sims.controlUrl);
  const before = await sims.ledger();

  const id = await notifyInCategory(platform.api.url, TEST_API_KEY, 'all-closed', recipient, 'marketing');
  const [view] = await waitAllTerminal(platform.redis.url, [id], 20_000);
  expect(view).toMatchObject({ status: 'opted-out', failureReason: 'all-channels-opted-out', attempts: [] });
  expect(new Set(view!.skips.map((s) => s.reason))).toEqual(new Set(['opted-out']));
  expect(view!.skips).toHaveLength(3);
  expect((await api().get(`/v1/notifications/${id}`).set(auth)).body).toMatchObject({ status: 'opted-out' });

  await waitFor('the opted_out event', async () => receiver.verified.length >= 1 || undefined, 15_000, 20);
  const events = receiver.verified.map((r) => JSON.parse(r.body) as { type: string; data: { id: string; status: string } });
  expect(events.map((e) => [e.type, e.data.id, e.data.status])).toEqual([['notification.opted_out', id, 'opted-out']]);

  const after = await sims.ledger();
  expect(after.calls).toEqual(before.calls);
  await waitFor('the opted-out count', async () => (await counted('notify_notifications_opted_out_total')) === 1 || undefined, 10_000, 20);
  expect(await counted('notify_notifications_total', 'outcome="failed"')).toBe(0);
  expect(await counted('notify_notifications_total')).toBe(0);
});
