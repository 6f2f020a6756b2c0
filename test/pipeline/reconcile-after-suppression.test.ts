import { Redis } from 'ioredis';
import request from 'supertest';
import { notificationKey, suppressionKey, type NotificationView } from '@notify/core';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { waitFor } from '@notify/platform-kit';
import { simulatorControl } from '../harness/sim-control';

/**
 * A push call ends unknown (it timed out after the provider delivered); while its reconciliation
 * waits (push refusing connections), push is suppressed for the recipient, as another
 * notification's permanent invalid-address does (finish-attempt's suppression key). The
 * reconciliation re-asks about the call already made, under its key: it is no new send, so the
 * suppression does not block it, and the notification ends instead of re-checking for good.
 * The maximum age is the production default, so only the rule can end it within the wait.
 */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({
    env: { BREAKER_ENABLED: 'false', PROVIDER_TIMEOUT_MS: '300', CASCADE_RECONCILE_DELAY_MS: '500', CASCADE_UNAVAILABLE_RETRY_MS: '200' },
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
  });
});
afterAll(async () => {
  await platform?.stop();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const { control, ledger } = simulatorControl(() => platform.sims.controlUrl);
const view = async (id: string) => (await readViews(platform.redis.url, [id]))[0] as NotificationView;
const refused = (v: NotificationView) => v.attempts.filter((a) => a.errorClass === 'ECONNREFUSED');

it('an unknown push outcome reconciles after push was suppressed for the recipient, and the notification ends', async () => {
  const before = await ledger();
  await control('/control/channels/push', { mode: 'slow', slowMs: 1_000 });
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set(auth)
    .send({
      eventId: 'unknown-then-suppressed',
      priority: 'urgent',
      content: { title: 't', body: 'b' },
      recipient: { id: 'r-unknown-then-suppressed', addresses: { push: 'tok', sms: '+905551112233', email: 'r@example.com' } },
    });
  expect(res.status).toBe(202);
  const id = res.body.id as string;
  await waitFor('the first push call to end unknown', async () => (await view(id)).attempts[0]?.outcome === 'unknown', 10_000);
  await waitFor('the provider to deliver the timed-out call', async () => (await ledger()).deliveries === before.deliveries + 1, 10_000);
  await control('/control/channels/push', { mode: 'down' });
  await waitFor('a reconciliation refused at connect', async () => refused(await view(id)).length >= 1, 10_000);

  const redis = new Redis(platform.redis.url, { maxRetriesPerRequest: 1 });
  try {
    const rh = (await redis.hget(notificationKey(id), 'rh')) as string;
    await redis.set(suppressionKey(rh, 'push'), '1', 'EX', 3_600);
    await control('/control/channels/push/restore');
    const [done] = await waitAllTerminal(platform.redis.url, [id], 15_000);

    expect(done).toMatchObject({ status: 'delivered', deliveredChannel: 'push' });
    // Only reconciliations of the push call after it (a busy machine may time one out too), the last one answered.
    const spent = done!.attempts.filter((a) => a.spent !== false).map((a) => [a.channel, a.kind, a.outcome]);
    expect(spent[0]).toEqual(['push', 'send', 'unknown']);
    expect(spent.at(-1)).toEqual(['push', 'reconcile', 'delivered']);
    expect(spent.slice(1).every(([channel, kind]) => channel === 'push' && kind === 'reconcile')).toBe(true);
    expect(done!.skips.filter((s) => s.reason === 'suppressed')).toEqual([]);
    // One delivery in all: the reconciliation was answered with the first call's result.
    expect((await ledger()).deliveries - before.deliveries).toBe(1);
  } finally {
    redis.disconnect();
  }
});
