import { Redis } from 'ioredis';
import request from 'supertest';
import { notificationKey } from '@notify/core';
import { waitAllTerminal } from '../harness/notification-poll';
import { TEST_API_KEY } from '../harness/platform';
import { useUnsettledPush } from '../harness/unsettled-push';

/**
 * An outcome that never settles: the first push call times out after the provider delivered; then push refuses
 * connections. A refused reconciliation provably never left, so it spends no budget: the
 * notification waits for its channel (re-checking at CASCADE_UNAVAILABLE_RETRY_MS) up to the
 * maximum age. Push back in time -> delivered with 2 calls spent; never back -> `unconfirmed`
 * (the provider did deliver: never `failed`). Breakers off, so only the rule is measured.
 */
const { platform, control, ledger, refused, timeOutThenGoDown } = useUnsettledPush({ CASCADE_RECONCILE_DELAY_MS: '2500', CASCADE_MAX_AGE_MS: '7000' });
const auth = { authorization: `Bearer ${TEST_API_KEY}` };

it('a refused reconciliation spends no call: push comes back, the key reconciles, status delivered', async () => {
  const before = await ledger();
  const id = await timeOutThenGoDown('unsettled-back', 2);
  await control('/control/channels/push/restore');
  const [done] = await waitAllTerminal(platform().redis.url, [id], 10_000);

  expect(done).toMatchObject({ status: 'delivered', deliveredChannel: 'push' });
  expect(refused(done!).every((a) => a.kind === 'reconcile' && a.outcome === 'transient' && a.spent === false)).toBe(true);
  expect(done!.attempts.filter((a) => a.spent !== false).map((a) => [a.kind, a.outcome])).toEqual([
    ['send', 'unknown'],
    ['reconcile', 'delivered'],
  ]);
  expect(await hget(id, 'calls')).toBe('2');
  const after = await ledger();
  expect(after.deliveries - before.deliveries).toBe(1);
  expect((after.calls.sms ?? 0) - (before.calls.sms ?? 0)).toBe(0);
  expect((after.calls.email ?? 0) - (before.calls.email ?? 0)).toBe(0);
});

/**
 * Both wait out the maximum age, so they wait side by side: push goes down under the unknown
 * outcome, then the other channels go down too and the one refused everywhere is sent.
 */
describe('channels that stay down until the maximum age', () => {
  let neverSettled: string;
  let allRefused: string;
  beforeAll(async () => {
    neverSettled = await timeOutThenGoDown('unsettled-never', 2);
    for (const c of ['sms', 'email']) await control(`/control/channels/${c}`, { mode: 'down' });
    const res = await request(platform().api.url)
      .post('/v1/notifications')
      .set(auth)
      .send({
        eventId: 'all-refused',
        priority: 'urgent',
        content: { title: 't', body: 'b' },
        recipient: { id: 'r-all-refused', addresses: { push: 'tok', sms: '+905551112233', email: 'r@example.com' } },
      });
    expect(res.status).toBe(202);
    allRefused = res.body.id as string;
  });
  afterAll(async () => {
    for (const c of ['push', 'sms', 'email']) await control(`/control/channels/${c}/restore`);
  });

  it('an unknown outcome its channel never lets us settle ends unconfirmed at the maximum age, never failed', async () => {
    const [done] = await waitAllTerminal(platform().redis.url, [neverSettled], 15_000);

    expect(done).toMatchObject({ status: 'unconfirmed', failureReason: 'unknown-outcome-unsettled-before-maximum-age' });
    expect(done!.attempts.filter((a) => a.spent !== false)).toHaveLength(1);
    expect(done!.attempts.every((a) => a.channel === 'push')).toBe(true);
    const res = await request(platform().api.url).get(`/v1/notifications/${neverSettled}`).set(auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'unconfirmed' });
    expect(await hget(neverSettled, 'addresses')).toBeNull();
  });

  it('sends refused on every channel spend nothing and end failed at the maximum age, not budget-exhausted', async () => {
    const [done] = await waitAllTerminal(platform().redis.url, [allRefused], 15_000);
    expect(done).toMatchObject({ status: 'failed', failureReason: 'no channel available before the maximum age' });
    expect(done!.attempts.length).toBeGreaterThan(3);
    expect(done!.attempts.every((a) => a.spent === false && a.errorClass === 'ECONNREFUSED')).toBe(true);
    expect(await hget(allRefused, 'calls')).toBe('0');
  });
});

async function hget(id: string, field: string): Promise<string | null> {
  const redis = new Redis(platform().redis.url, { maxRetriesPerRequest: 1 });
  try {
    return await redis.hget(notificationKey(id), field);
  } finally {
    redis.disconnect();
  }
}
