import request from 'supertest';
import { providerIdempotencyKey } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { laneCounts } from '../harness/queue-counts';
import { OTHER_TENANT_KEY, TEST_API_KEY } from '../harness/platform';
import { useTimePlatform } from './time-platform';

/**
 * DELETE /v1/notifications/:id and ?eventId= against the real pipeline: a cancel wins while
 * nothing is in flight (queued, waiting between cascade steps) and loses (409 naming the state)
 * while a call is in flight or once it ended; another tenant's id is a 404. At 0.1 x production
 * time the wait after a transient error is 3 s, long enough to cancel inside it.
 */
const { platform: running, sims } = useTimePlatform();
const auth = (key = TEST_API_KEY) => ({ authorization: `Bearer ${key}` });
const api = () => request(running().api.url);
const deliveries = async (id: string) =>
  ((await (await fetch(`${running().sims.controlUrl}/ledger/keys/${providerIdempotencyKey(id)}`)).json()) as { deliveries: unknown[] }).deliveries;

function body(eventId: string, recipient: string, addresses: Record<string, string> = { push: `tok-${recipient}` }) {
  return { eventId, priority: 'urgent', recipient: { id: recipient, addresses }, content: { title: 'T', body: 'B' } };
}

async function accepted(payload: object, key = TEST_API_KEY): Promise<string> {
  const res = await api().post('/v1/notifications').set(auth(key)).send(payload);
  expect(res.status).toBe(202);
  return res.body.id as string;
}

const statusOf = async (id: string) => (await api().get(`/v1/notifications/${id}`).set(auth())).body.status as string;
const waitStatus = (id: string, status: string) => waitFor(`${id} ${status}`, async () => (await statusOf(id)) === status, 15_000, 20);

it('wins between cascade steps: 200 canceled, again 200, and no provider is called after it', async () => {
  await sims().control('/control/channels/push', { transientRate: 1 });
  const id = await accepted(body('cancel-wins', 'r-wins', { push: 'tok-w', sms: '+905551112200' }));
  await waitStatus(id, 'retry-scheduled');
  const first = await api().delete(`/v1/notifications/${id}`).set(auth());
  expect(first.status).toBe(200);
  expect(first.body).toEqual({ id, status: 'canceled' });
  expect((await api().delete(`/v1/notifications/${id}`).set(auth())).status).toBe(200);
  const before = await sims().ledger();
  // The next step was due 3 s after the failure: it runs, finds the record terminal, calls nothing.
  await waitFor('the canceled step job to have run', async () => (await Promise.all(laneCounts(running().redis.url))).every((n) => n === 0), 10_000, 100);
  const view = (await api().get(`/v1/notifications/${id}`).set(auth())).body;
  expect(view).toMatchObject({ status: 'canceled', failureReason: 'canceled by its tenant', attempts: [{ channel: 'push', outcome: 'transient' }] });
  expect((await sims().ledger()).calls).toEqual(before.calls);
  expect(await deliveries(id)).toEqual([]);
});

it('loses while the call is in flight (409 sending) and after the delivery (409 delivered)', async () => {
  await sims().control('/control/channels/push', { mode: 'slow', slowMs: 1_000 });
  const id = await accepted(body('cancel-loses', 'r-loses'));
  await waitStatus(id, 'sending');
  const inFlight = await api().delete(`/v1/notifications/${id}`).set(auth());
  expect(inFlight.status).toBe(409);
  expect(inFlight.body.error).toMatchObject({ code: 'NOT_CANCELABLE', details: [{ field: 'status', reason: 'sending' }] });
  await waitStatus(id, 'delivered');
  const after = await api().delete(`/v1/notifications/${id}`).set(auth());
  expect(after.status).toBe(409);
  expect(after.body.error.details).toEqual([{ field: 'status', reason: 'delivered' }]);
  expect(await deliveries(id)).toHaveLength(1);
});

it("answers 404 for an unknown id and for another tenant's, 400 for a malformed one, and leaves the other tenant's alone", async () => {
  await sims().control('/control/channels/push', { transientRate: 1 });
  const theirs = await accepted(body('cancel-404', 'r-other'), OTHER_TENANT_KEY);
  const unknown = await api()
    .delete(`/v1/notifications/${'0'.repeat(32)}`)
    .set(auth());
  expect(unknown.status).toBe(404);
  const other = await api().delete(`/v1/notifications/${theirs}`).set(auth());
  expect(other.status).toBe(404);
  expect(other.body.error.code).toBe('NOT_FOUND');
  expect((await api().delete('/v1/notifications/not-an-id').set(auth())).status).toBe(400);
  const own = (await api().get(`/v1/notifications/${theirs}`).set(auth(OTHER_TENANT_KEY))).body.status;
  expect(own).not.toBe('canceled');
});

it('cancels an event for every recipient, answering counts; another event and tenant stay as they are', async () => {
  const done = await accepted(body('order-77', 'r-done', { sms: '+905551112201' }));
  await waitStatus(done, 'delivered');
  await sims().control('/control/channels/push', { transientRate: 1 });
  const waiting = [
    await accepted(body('order-77', 'r-a', { push: 'tok-a', sms: '+905551112202' })),
    await accepted(body('order-77', 'r-b', { push: 'tok-b', sms: '+905551112203' })),
  ];
  const otherEvent = await accepted(body('order-78', 'r-a', { push: 'tok-a', sms: '+905551112202' }));
  const otherTenant = await accepted(body('order-77', 'r-a', { push: 'tok-a', sms: '+905551112202' }), OTHER_TENANT_KEY);
  for (const id of waiting) await waitStatus(id, 'retry-scheduled');
  const res = await api().delete('/v1/notifications').query({ eventId: 'order-77' }).set(auth());
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ eventId: 'order-77', canceled: 2, notCancelable: 1, notFound: 0, notCancelableByState: { delivered: 1 } });
  for (const id of waiting) expect(await statusOf(id)).toBe('canceled');
  expect(await statusOf(otherEvent)).not.toBe('canceled');
  expect((await api().get(`/v1/notifications/${otherTenant}`).set(auth(OTHER_TENANT_KEY))).body.status).not.toBe('canceled');
  const bad = await api().delete('/v1/notifications').query({ eventId: 'order-77', status: 'x' }).set(auth());
  expect(bad.status).toBe(400);
  expect(bad.body.error.details).toEqual([{ field: 'status', reason: expect.any(String) }]);
  expect((await api().delete('/v1/notifications').set(auth())).body.error.details[0].field).toBe('eventId');
});
