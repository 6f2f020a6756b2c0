import request from 'supertest';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { waitAllTerminal } from '../harness/notification-poll';
import { notificationFor } from '../fixtures/notifications';

/**
 * Invariants 6 and 7 by order of events, not by timings: urgent work is not queued behind a
 * reminder backlog, and a slow channel does not hold the other channels' work.
 */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({
    env: {
      // Narrow reminder lanes so a reminder backlog really forms.
      LANES: JSON.stringify({ push: { reminder: { concurrency: 2 } }, sms: { reminder: { concurrency: 2 } }, email: { reminder: { concurrency: 2 } } }),
      PROVIDER_TIMEOUT_MS: '10000',
    },
    simEnv: { SIM_LATENCY_MS: '10', SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
  });
});
afterAll(async () => {
  await platform?.stop();
});

async function postAll(bodies: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < bodies.length; i += 1_000) {
    const res = await request(platform.api.url)
      .post('/v1/notifications/batch')
      .set('authorization', `Bearer ${TEST_API_KEY}`)
      .send({ notifications: bodies.slice(i, i + 1_000) });
    ids.push(...res.body.results.map((r: { id: string }) => r.id));
  }
  return ids;
}

it('urgent notifications are delivered ahead of an earlier reminder backlog', async () => {
  const reminders = await postAll(Array.from({ length: 300 }, (_, i) => notificationFor(i, 'push', { prefix: 'backlog', priority: 'reminder' })));
  const urgent = await postAll(Array.from({ length: 60 }, (_, i) => notificationFor(i, 'push', { prefix: 'urgent-after', priority: 'urgent' })));
  const urgentViews = await waitAllTerminal(platform.redis.url, urgent, 30_000);
  const reminderViews = await waitAllTerminal(platform.redis.url, reminders, 60_000);
  const lastUrgent = Math.max(...urgentViews.map((v) => v.deliveredAt ?? Infinity));
  const remindersBefore = reminderViews.filter((v) => (v.deliveredAt ?? Infinity) < lastUrgent).length;
  process.stdout.write(`lanes: ${remindersBefore} of ${reminders.length} earlier reminders were delivered before the last urgent one\n`);
  expect(urgentViews.every((v) => v.status === 'delivered')).toBe(true);
  // Queued behind the backlog, the urgent ones would come after (nearly) all 300 reminders.
  expect(remindersBefore).toBeLessThan(reminders.length / 2);
});

it('a slow channel does not hold the other channels (bulkheads)', async () => {
  await fetch(`${platform.sims.controlUrl}/control/channels/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // 6 s a call (under PROVIDER_TIMEOUT_MS): the healthy channels' 200 deliveries must fit
    // before the first slow SMS ends, also on a busy machine (2 s once took them 3.6 s in CI).
    body: JSON.stringify({ mode: 'slow', slowMs: 6_000 }),
  });
  try {
    // Twice the SMS urgent bulkhead (22): the lane fills and a backlog waits behind it.
    const sms = await postAll(Array.from({ length: 44 }, (_, i) => notificationFor(i, 'sms', { prefix: 'slow-sms', priority: 'urgent' })));
    const others = await postAll(
      Array.from({ length: 200 }, (_, i) => notificationFor(i, i % 2 ? 'push' : 'email', { prefix: 'healthy', priority: 'urgent' })),
    );
    const otherViews = await waitAllTerminal(platform.redis.url, others, 30_000);
    // The first wave of SMS calls stays slow to its end; the backlog behind it need not be.
    await fetch(`${platform.sims.controlUrl}/control/channels/sms/restore`, { method: 'POST' });
    const smsViews = await waitAllTerminal(platform.redis.url, sms, 60_000);
    const firstSms = Math.min(...smsViews.map((v) => v.deliveredAt ?? Infinity));
    const lastOther = Math.max(...otherViews.map((v) => v.deliveredAt ?? Infinity));
    expect(otherViews.every((v) => v.status === 'delivered' && v.deliveredChannel !== 'sms')).toBe(true);
    expect(smsViews.every((v) => v.status === 'delivered' && v.deliveredChannel === 'sms')).toBe(true);
    // Every push/e-mail notification, sent after the SMS ones, is done before the first slow SMS.
    expect(lastOther).toBeLessThan(firstSms);
  } finally {
    await fetch(`${platform.sims.controlUrl}/control/channels/sms/restore`, { method: 'POST' });
  }
});
