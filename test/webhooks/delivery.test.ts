import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import type { NotificationView } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { postAllAccepted } from '../harness/batch-post';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { startReceiver, type Receiver } from './receiver';

/**
 * Webhook acceptance: 1,000 notifications through the real pipeline (api, worker, simulated
 * providers, Redis from the harness); a receiver on loopback verifies every signature with the
 * Standard Webhooks verifier (`standardwebhooks` from npm) and, after de-duplication by
 * webhook-id, gets exactly one event per notification, of its final status, although its
 * endpoint is down (503s and reset connections) for the first part of the run. Retry delays
 * are configured in milliseconds so the test takes seconds.
 */
const COUNT = 1_000;
const DOWN_FOR_REQUESTS = 600;

let platform: TestPlatform;
let receiver: Receiver;
let secrets: string[] = [];
let endpointId: string;

const auth = (r: request.Test) => r.set('authorization', `Bearer ${TEST_API_KEY}`);

beforeAll(async () => {
  platform = await startTestPlatform({
    env: {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_RETRY_MAX_DELAY_MS: '300',
      WEBHOOK_MAX_ATTEMPTS: '100',
      WEBHOOK_CONCURRENCY: '16',
      WEBHOOK_PER_ENDPOINT_CONCURRENCY: '8',
    },
  });
  // Down for the first requests: every other one a 503, the rest reset without an answer.
  receiver = await startReceiver({ secrets: () => secrets, answer: (_req, n) => (n <= DOWN_FOR_REQUESTS ? (n % 2 === 0 ? 503 : 'destroy') : 200) });
  const created = await auth(request(platform.api.url).post('/v1/webhooks')).send({
    url: receiver.url,
    events: ['notification.delivered', 'notification.failed', 'notification.unconfirmed'],
  });
  expect(created.status).toBe(201);
  secrets = [created.body.secret as string];
  endpointId = created.body.id as string;
});

afterAll(async () => {
  await platform?.stop();
  await receiver?.close();
});

const body = (i: number, run: string) => ({
  eventId: `${run}-${i}`,
  priority: i % 3 === 0 ? 'reminder' : 'urgent',
  recipient: { id: `user-${i}`, addresses: { push: `tok-${i}`, sms: '+905551112233', email: `u${i}@example.com` }, preferences: ['push', 'sms', 'email'] },
  content: { title: 'Kargonuz yolda', body: 'Siparişiniz kargoya verildi.' },
});

it('1,000 notifications: every event received and verified, exactly once after de-duplication, through an outage of the endpoint', async () => {
  const run = `wh-${Date.now()}`;
  const ids = await postAllAccepted(
    platform.api.url,
    Array.from({ length: COUNT }, (_, i) => body(i, run)),
    500,
  );
  const views = await waitAllTerminal(platform.redis.url, ids, 120_000);
  const byId = new Map<string, NotificationView>(views.map((v) => [v.id, v]));

  const unique = await waitFor(
    `${COUNT} distinct events verified`,
    () => {
      const seen = new Map(receiver.verified.map((r) => [r.headers['webhook-id'], r]));
      return seen.size >= COUNT ? seen : undefined;
    },
    120_000,
    200,
  );
  expect(receiver.badSignatures).toEqual([]);
  // The outage happened and was ridden out by retries.
  expect(receiver.requests.length).toBeGreaterThan(DOWN_FOR_REQUESTS + COUNT - 1);

  const notifications = new Map<string, number>();
  for (const [eventId, received] of unique) {
    const event = JSON.parse(received.body) as { id: string; type: string; timestamp: string; data: NotificationView };
    expect(event.id).toBe(eventId);
    const view = byId.get(event.data.id);
    expect(view).toBeDefined();
    expect(event.type).toBe(`notification.${view!.status}`);
    expect(event.data).toEqual(view); // the status object as the api shows it
    expect(received.body).not.toMatch(/tok-\d|\+90555|@example\.com|Kargonuz/); // no address, no content
    notifications.set(event.data.id, (notifications.get(event.data.id) ?? 0) + 1);
  }
  expect(unique.size).toBe(COUNT);
  expect([...notifications.values()].every((n) => n === 1)).toBe(true);
  expect(new Set(notifications.keys())).toEqual(new Set(ids));

  // The deliveries list shows the failures and the successes, newest first, capped.
  const deliveries = await auth(request(platform.api.url).get(`/v1/webhooks/${endpointId}/deliveries`));
  expect(deliveries.status).toBe(200);
  expect(deliveries.body.items).toHaveLength(100);
  expect(deliveries.body.items[0]).toMatchObject({ result: 'success', statusCode: 200 });

  // The worker counted failures and successes.
  const metrics = await (await fetch(platform.workers[0]!.metricsUrl)).text();
  expect(metrics).toMatch(/^notify_webhook_deliveries_total\{[^}]*outcome="failure"[^}]*\} [1-9]/m);
  expect(metrics).toMatch(/^notify_webhook_deliveries_total\{[^}]*outcome="success"[^}]*\} [1-9]/m);
}, 300_000);

it('retry sends a delivered event again (same webhook-id); rotation: both secrets verify during the grace period', async () => {
  const [eventId] = receiver.verified.map((r) => r.headers['webhook-id']!);
  const before = receiver.verified.filter((r) => r.headers['webhook-id'] === eventId).length;
  const retried = await auth(request(platform.api.url).post(`/v1/webhooks/${endpointId}/deliveries/${eventId}/retry`));
  expect(retried.status).toBe(202);
  expect(retried.body).toMatchObject({ eventId, previousState: 'completed' });
  await waitFor('the retried event', () => receiver.verified.filter((r) => r.headers['webhook-id'] === eventId).length > before, 20_000, 50);

  const old = secrets[0]!;
  const rotated = await auth(request(platform.api.url).post(`/v1/webhooks/${endpointId}/rotate-secret`));
  expect(rotated.status).toBe(200);
  const fresh = rotated.body.secret as string;
  secrets = [fresh];
  const [id] = await postAllAccepted(platform.api.url, [body(0, `rot-${Date.now()}`)], 1);
  const received = await waitFor(
    'the event after rotation',
    () => receiver.verified.find((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === id),
    30_000,
    50,
  );
  expect(received.headers['webhook-signature']!.split(' ')).toHaveLength(2);
  expect(() => new Webhook(old).verify(received.body, received.headers)).not.toThrow();
  expect(() => new Webhook(fresh).verify(received.body, received.headers)).not.toThrow();
});
