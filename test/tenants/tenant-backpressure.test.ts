import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { useBackloggedPlatform } from '../harness/aged-backlog';
import { OTHER_TENANT_KEY, TEST_API_KEY } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * Push-back per tenant (LANE_FAIR_SHARE on, the default): while the lanes are behind, intake
 * refuses the tenant whose flood holds the backlog and still takes a tenant below its fair
 * share, until the lanes are three times further behind; then everyone is refused. No worker
 * runs, so what is accepted waits; the test ages the real backlog by moving the pending-intake
 * scores back instead of waiting on the clock.
 */
const WAIT_MS = 10_000;
const COUNT = 3;
const FLOOD = 12;

const backlogged = useBackloggedPlatform({ waitMs: WAIT_MS, count: COUNT });

const post = (key: string, body: object) => request(backlogged.platform().api.url).post('/v1/notifications').set('authorization', `Bearer ${key}`).send(body);
const reminder = (prefix: string, i: number) => notificationFor(i, 'push', { prefix, priority: 'reminder' });
const refusing = async () => (await backlogged.metric('notify_intake_backpressure', { class: 'reminder' })) === 1;
const tenantRefused = (tenant: string) => backlogged.metric('notify_tenant_notifications_total', { tenant, result: 'backlog_full' });
const ageBacklog = (ageMs: number) => backlogged.age(ageMs);

it("refuses the tenant holding the backlog, takes another's work until the lanes are far behind", async () => {
  for (let i = 0; i < FLOOD; i += 1) expect((await post(TEST_API_KEY, reminder('flood', i))).status).toBe(202);
  expect((await post(OTHER_TENANT_KEY, reminder('few', 0))).status).toBe(202);

  await ageBacklog(WAIT_MS * 2);
  await waitFor('notify_intake_backpressure{class="reminder"} 1', refusing);
  const flooder = await post(TEST_API_KEY, reminder('flood-more', 0));
  expect(flooder.status).toBe(503);
  expect(flooder.body.error.code).toBe('BACKLOG_FULL');
  expect(await tenantRefused('tenant-a')).toBe(1);
  // tenant-b holds 1 of 13 waiting steps, under its half: its reminders are still taken, alone and in a batch.
  expect((await post(OTHER_TENANT_KEY, reminder('few', 1))).status).toBe(202);
  const batch = await request(backlogged.platform().api.url)
    .post('/v1/notifications/batch')
    .set('authorization', `Bearer ${OTHER_TENANT_KEY}`)
    .send({ notifications: [reminder('few', 2), reminder('few', 3)] });
  expect(batch.body).toMatchObject({ accepted: 2, rejected: 0 });
  expect(await tenantRefused('tenant-b')).toBe(0);

  // Three times further behind: everyone's reminders are refused.
  await ageBacklog(WAIT_MS * 3 * 2);
  await waitFor('tenant-b refused once everyone is', async () => (await post(OTHER_TENANT_KEY, reminder('few', 4))).status === 503);
  expect(await tenantRefused('tenant-b')).toBeGreaterThanOrEqual(1);
});
