import { Redis } from 'ioredis';
import request from 'supertest';
import { pendingIntakeKey } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { OTHER_TENANT_KEY, startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
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

let platform: TestPlatform;
let redis: Redis;

beforeAll(async () => {
  platform = await startTestPlatform({ workerCount: 0, env: { INTAKE_BACKPRESSURE_WAIT_MS: String(WAIT_MS), INTAKE_BACKPRESSURE_COUNT: String(COUNT) } });
  redis = new Redis(platform.redis.url);
});
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
});

const post = (key: string, body: object) => request(platform.api.url).post('/v1/notifications').set('authorization', `Bearer ${key}`).send(body);
const reminder = (prefix: string, i: number) => notificationFor(i, 'push', { prefix, priority: 'reminder' });
const metrics = async () => (await fetch(platform.api.metricsUrl)).text();
const refusing = async () =>
  (await metrics()).split('\n').some((l) => l.startsWith('notify_intake_backpressure{') && l.includes('class="reminder"') && l.endsWith(' 1'));
const tenantRefused = async (tenant: string) =>
  Number(
    (await metrics())
      .split('\n')
      .find((l) => l.startsWith('notify_tenant_notifications_total{') && l.includes(`tenant="${tenant}"`) && l.includes('result="backlog_full"'))
      ?.split(' ')
      .pop(),
  );
const ageBacklog = async (ageMs: number) => {
  const ids = await redis.zrange(pendingIntakeKey(0), '0', '-1');
  await redis.zadd(pendingIntakeKey(0), 'XX', ...ids.flatMap((id) => [String(Date.now() - ageMs), id]));
};

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
  const batch = await request(platform.api.url)
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
