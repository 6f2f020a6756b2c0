import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { TEST_API_KEY } from '../harness/platform';
import { useTimePlatform } from './time-platform';

/**
 * `expiresAt` / `ttlSeconds` against the real pipeline: refused with a 400 naming the field
 * when malformed, doubled or past; checked before every call, so a notification whose next call
 * would come after it ends `expired` without that call: in the cascade's wait (which is cut to
 * the expiry) and before a reconciliation. At 0.1 x production time the wait after a transient
 * error is 3 s.
 */
const { platform: running, sims } = useTimePlatform();
const auth = { authorization: `Bearer ${TEST_API_KEY}` };
/** Every notification accepted so far in this file. */
const accepted: string[] = [];
const post = async (payload: object) => {
  const res = await request(running().api.url).post('/v1/notifications').set(auth).send(payload);
  if (res.status === 202) accepted.push(res.body.id as string);
  return res;
};
const view = async (id: string) => (await request(running().api.url).get(`/v1/notifications/${id}`).set(auth)).body as Record<string, unknown>;
const waitEnded = (id: string) => waitFor(`${id} terminal`, async () => ((await view(id)).finishedAt ? view(id) : undefined), 20_000, 25);

/** Accepted notifications of the tests so far not yet terminal. */
async function settledBefore(): Promise<number> {
  const open = await Promise.all(accepted.map(async (id) => ((await view(id)).finishedAt ? 0 : 1)));
  return open.reduce<number>((a, b) => a + b, 0);
}

function body(eventId: string, extra: object, addresses: Record<string, string> = { push: `tok-${eventId}`, sms: '+905551112210' }) {
  return { eventId, priority: 'urgent', recipient: { id: `r-${eventId}`, addresses }, content: { title: 'T', body: 'B' }, ...extra };
}

it('answers 400 naming the field: malformed, without an offset, both given, in the past, not a whole positive number', async () => {
  const cases: [object, string][] = [
    [{ expiresAt: 'tomorrow' }, 'expiresAt'],
    [{ expiresAt: '2030-01-01T10:00:00' }, 'expiresAt'],
    [{ expiresAt: '2030-01-01T10:00:00Z', ttlSeconds: 60 }, 'ttlSeconds'],
    [{ expiresAt: '2020-01-01T10:00:00+03:00' }, 'expiresAt'],
    [{ ttlSeconds: 0 }, 'ttlSeconds'],
    [{ ttlSeconds: 1.5 }, 'ttlSeconds'],
  ];
  for (const [extra, field] of cases) {
    const res = await post(body(`bad-${field}-${JSON.stringify(extra).length}`, extra));
    expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  }
});

it('takes expiresAt and ttlSeconds in a batch, judged per item', async () => {
  const res = await request(running().api.url)
    .post('/v1/notifications/batch')
    .set(auth)
    .send({ notifications: [body('exp-batch-ok', { ttlSeconds: 600 }), body('exp-batch-bad', { ttlSeconds: 600, expiresAt: '2031-01-01T00:00:00Z' })] });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ accepted: 1, rejected: 1 });
  expect(res.body.results[1]).toMatchObject({ httpStatus: 400, error: { details: [{ field: 'ttlSeconds' }] } });
  accepted.push(res.body.results[0].id as string);
  expect((await view(res.body.results[0].id)).expiresAt).toEqual(expect.any(Number));
});

it('is part of the payload: the same request is a duplicate, another expiry a 422; the status shows expiresAt', async () => {
  const at = '2031-03-01T12:00:00+03:00';
  const first = await post(body('exp-same', { expiresAt: at }));
  expect(first.status).toBe(202);
  expect((await post(body('exp-same', { expiresAt: at }))).status).toBe(200);
  expect((await post(body('exp-same', { expiresAt: '2031-03-01T12:00:01+03:00' }))).status).toBe(422);
  expect((await view(first.body.id)).expiresAt).toBe(Date.parse(at));
});

it('ends expired in the cascade wait, at the expiry rather than after the wait, without the second call', async () => {
  // The earlier tests' notifications end first: one still on push when push turns transient
  // would cascade to SMS and be counted below.
  await waitFor('earlier notifications terminal', async () => (await settledBefore()) === 0, 20_000, 25);
  await sims().control('/control/channels/push', { transientRate: 1 });
  const before = await sims().ledger();
  const res = await post(body('exp-cascade', { ttlSeconds: 1 }));
  expect(res.status).toBe(202);
  const ended = await waitEnded(res.body.id);
  expect(ended).toMatchObject({
    status: 'expired',
    failureReason: 'its expiresAt passed before it was delivered',
    attempts: [{ channel: 'push', outcome: 'transient' }],
  });
  // The next call was due 3 s after the failure; the step ran at the expiry (~1 s) instead, and no call was made.
  const failedAt = (ended.attempts as { finishedAt: number }[])[0]?.finishedAt as number;
  expect((ended.finishedAt as number) - failedAt).toBeLessThan(3_000);
  expect((ended.finishedAt as number) >= (ended.expiresAt as number)).toBe(true);
  const after = await sims().ledger();
  expect((after.calls.sms ?? 0) - (before.calls.sms ?? 0)).toBe(0);
});

it('ends expired before a reconciliation: the unknown call is not asked again after the expiry', async () => {
  // Slower than the 2 s provider timeout: the call's outcome is unknown, and the expiry passes meanwhile.
  await sims().control('/control/channels/push', { mode: 'slow', slowMs: 3_000 });
  const before = await sims().ledger();
  const res = await post(body('exp-reconcile', { ttlSeconds: 1 }, { push: 'tok-rec' }));
  const ended = await waitEnded(res.body.id);
  expect(ended).toMatchObject({ status: 'expired', attempts: [{ channel: 'push', outcome: 'unknown' }] });
  const pushCalls = async () => ((await sims().ledger()).calls.push ?? 0) - (before.calls.push ?? 0);
  await waitFor('the slow call to be answered at the simulator', async () => (await pushCalls()) >= 1, 10_000, 50);
  expect(await pushCalls()).toBe(1);
});
