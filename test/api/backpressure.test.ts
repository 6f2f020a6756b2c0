import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { waitAllTerminal } from '../harness/notification-poll';
import { useBackloggedPlatform } from '../harness/aged-backlog';
import { startTestWorker, TEST_API_KEY } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * Intake pushes back when the lanes fall behind, reminders first, urgent last (and urgent only
 * for an urgent backlog), and takes work again once they catch up. No worker runs at first, so
 * what is accepted waits; how long it has waited is what the pending sets' scores say, so the
 * test ages the real backlog by moving those scores back instead of waiting the bound out.
 */
const WAIT_MS = 10_000;
const COUNT = 3;

const backlogged = useBackloggedPlatform({ waitMs: WAIT_MS, count: COUNT });
const platform = () => backlogged.platform();
const ageBacklog = (ageMs: number) => backlogged.age(ageMs);
const gauge = (name: string, cls: string) => backlogged.metric(name, { class: cls });

const post = (body: object) => request(platform().api.url).post('/v1/notifications').set('authorization', `Bearer ${TEST_API_KEY}`).send(body);
const postBatch = (notifications: object[]) =>
  request(platform().api.url).post('/v1/notifications/batch').set('authorization', `Bearer ${TEST_API_KEY}`).send({ notifications });

it('refuses reminders, then urgent, while the lanes are behind; a batch says which; all is taken again once they drain', async () => {
  const waiting = Array.from({ length: COUNT + 2 }, (_, i) => notificationFor(i, 'push', { prefix: 'bp-backlog', priority: 'reminder' }));
  for (const body of waiting) expect((await post(body)).status).toBe(202);
  expect(await gauge('notify_intake_backpressure', 'reminder')).toBe(0);

  // Behind by more than the reminders' bound, not the urgent one's.
  await ageBacklog(WAIT_MS * 2);
  await waitFor('notify_intake_backpressure{class="reminder"} 1', async () => (await gauge('notify_intake_backpressure', 'reminder')) === 1);
  expect(await gauge('notify_intake_overdue_notifications', 'reminder')).toBe(COUNT + 2);
  const refused = await post(notificationFor(0, 'push', { prefix: 'bp-refused', priority: 'reminder' }));
  expect(refused.status).toBe(503);
  expect(refused.body.error.code).toBe('BACKLOG_FULL');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect((await post(notificationFor(0, 'push', { prefix: 'bp-urgent', priority: 'urgent' }))).status).toBe(202);
  // A sendAt ahead adds nothing to the lanes now: taken.
  const later = { ...notificationFor(0, 'push', { prefix: 'bp-later', priority: 'reminder' }), sendAt: new Date(Date.now() + 3_600_000).toISOString() };
  expect((await post(later)).status).toBe(202);

  const batch = await postBatch([
    notificationFor(1, 'push', { prefix: 'bp-batch', priority: 'reminder' }),
    notificationFor(2, 'sms', { prefix: 'bp-batch', priority: 'urgent' }),
  ]);
  expect(batch.status).toBe(200);
  expect(batch.body).toMatchObject({ accepted: 1, rejected: 1 });
  expect(batch.body.results[0]).toMatchObject({ index: 0, httpStatus: 503, error: { code: 'BACKLOG_FULL' } });
  expect(batch.body.results[1]).toMatchObject({ index: 1, httpStatus: 202 });
  expect(Number(batch.headers['retry-after'])).toBeGreaterThanOrEqual(1);

  // Far past the urgent bound, but the urgent lanes' own backlog (2 waiting) is under the count: a reminder backlog never refuses urgent work.
  await ageBacklog(WAIT_MS * 4);
  await waitFor('notify_intake_overdue_notifications{class="urgent"} 2', async () => (await gauge('notify_intake_overdue_notifications', 'urgent')) === 2);
  expect(await gauge('notify_intake_overdue_notifications', 'reminder')).toBe(COUNT + 2 + 2);
  expect(await gauge('notify_intake_backpressure', 'urgent')).toBe(0);
  expect((await post(notificationFor(1, 'push', { prefix: 'bp-urgent', priority: 'urgent' }))).status).toBe(202);
  expect((await post(notificationFor(2, 'push', { prefix: 'bp-urgent', priority: 'urgent' }))).status).toBe(202);

  // The urgent lanes themselves far behind (4 waiting): urgent is refused last.
  const ids = await ageBacklog(WAIT_MS * 4);
  expect(ids).toHaveLength(COUNT + 2 + 4);
  await waitFor('notify_intake_backpressure{class="urgent"} 1', async () => (await gauge('notify_intake_backpressure', 'urgent')) === 1);
  const urgent = await post(notificationFor(3, 'push', { prefix: 'bp-urgent', priority: 'urgent' }));
  expect(urgent.status).toBe(503);
  expect(urgent.body.error.code).toBe('BACKLOG_FULL');

  // A worker drains the backlog: nothing accepted was lost, every urgent first step left the urgent backlog, and intake takes both classes again.
  const worker = await startTestWorker(platform());
  try {
    const ended = await waitAllTerminal(platform().redis.url, ids, 60_000);
    expect(ended.every((r) => r.status === 'delivered')).toBe(true);
    expect(await backlogged.urgentWaiting()).toBe(0);
    await waitFor('notify_intake_backpressure{class="reminder"} 0', async () => (await gauge('notify_intake_backpressure', 'reminder')) === 0);
    await waitFor('notify_intake_backpressure{class="urgent"} 0', async () => (await gauge('notify_intake_backpressure', 'urgent')) === 0);
    expect((await post(notificationFor(1, 'push', { prefix: 'bp-refused', priority: 'reminder' }))).status).toBe(202);
    expect((await post(notificationFor(3, 'push', { prefix: 'bp-urgent', priority: 'urgent' }))).status).toBe(202);
  } finally {
    await worker.close();
  }
});
