import request from 'supertest';
import { waitAllTerminal } from '../harness/notification-poll';
import { OTHER_TENANT_KEY, startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { readLedger } from '@notify/platform-kit';
import { notificationFor } from '../fixtures/notifications';
import { ledgerDeliveries } from '../harness/ledger-keys';

/**
 * `sendAt` against the real pipeline (private Redis, the simulated providers, a worker): a
 * scheduled notification waits as `scheduled`, is released when due and never sooner, and its
 * idempotency rules are those of any notification, with the time part of the payload.
 */
let platform: TestPlatform;
beforeAll(async () => {
  // The intake sweeper on a short fuse: were a released first step lost, it would be re-added.
  platform = await startTestPlatform({ env: { SCHEDULE_MAX_AHEAD: '3600', INTAKE_SWEEP_INTERVAL_MS: '200', INTAKE_SWEEP_MIN_AGE_MS: '500' } });
});
afterAll(async () => {
  await platform?.stop();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const post = (body: unknown) =>
  request(platform.api.url)
    .post('/v1/notifications')
    .set(auth)
    .send(body as object);
const view = async (id: string) => (await request(platform.api.url).get(`/v1/notifications/${id}`).set(auth)).body as Record<string, unknown>;
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

// Side by side (concurrent): each counts the deliveries of its own notifications only.
describe('a notification with sendAt ahead', () => {
  it.concurrent('is scheduled until due, then delivered, never before its sendAt', async () => {
    const sendAt = inSeconds(1.5);
    const body = { ...notificationFor(1, 'push', { prefix: 'sched', priority: 'reminder' }), sendAt };
    const res = await post(body);
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('scheduled');
    const id = res.body.id as string;
    expect(await view(id)).toMatchObject({ status: 'scheduled', sendAt: Date.parse(sendAt) });
    expect((await ledgerDeliveries(platform.sims.controlUrl, [id]))[0]).toHaveLength(0);

    const [done] = await waitAllTerminal(platform.redis.url, [id], 20_000);
    expect(done?.status).toBe('delivered');
    const due = Date.parse(sendAt);
    expect(done?.releasedAt).toBeGreaterThanOrEqual(due);
    for (const attempt of done?.attempts ?? []) expect(attempt.startedAt).toBeGreaterThanOrEqual(due);
    expect((await ledgerDeliveries(platform.sims.controlUrl, [id]))[0]).toHaveLength(1);
  });

  it.concurrent('answers a repeat with the same id (200), a moved sendAt with 422, another spelling of the same instant as the same', async () => {
    const at = new Date(Date.now() + 600_000);
    at.setUTCMilliseconds(0);
    const body = { ...notificationFor(2, 'sms', { prefix: 'sched' }), sendAt: at.toISOString() };
    const first = await post(body);
    expect(first.status).toBe(202);
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, status: 'scheduled', duplicate: true });
    // The same instant written with an offset: the same payload.
    const shifted = new Date(at.getTime() + 2 * 3_600_000).toISOString().replace('.000Z', '+02:00');
    expect((await post({ ...body, sendAt: shifted })).status).toBe(200);
    const moved = await post({ ...body, sendAt: new Date(at.getTime() + 60_000).toISOString() });
    expect(moved.status).toBe(422);
    expect(moved.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    // Without sendAt it is another payload too.
    const { sendAt: _dropped, ...unscheduled } = body;
    expect((await post(unscheduled)).status).toBe(422);
  });

  it.concurrent('is sent now when its sendAt has passed', async () => {
    const res = await post({ ...notificationFor(3, 'email', { prefix: 'sched' }), sendAt: inSeconds(-60) });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('accepted');
    const [done] = await waitAllTerminal(platform.redis.url, [res.body.id as string], 20_000);
    expect(done?.status).toBe('delivered');
  });

  it.concurrent('is released from a batch the same way, each item on its own time', async () => {
    const items = [0, 1, 2].map((i) => ({ ...notificationFor(10 + i, 'push', { prefix: 'sched-batch' }), sendAt: inSeconds(0.5 + i * 0.5) }));
    const res = await request(platform.api.url).post('/v1/notifications/batch').set(auth).send({ notifications: items });
    expect(res.status).toBe(200);
    const results = res.body.results as { id: string; status: string; httpStatus: number }[];
    expect(results.map((r) => [r.httpStatus, r.status])).toEqual([
      [202, 'scheduled'],
      [202, 'scheduled'],
      [202, 'scheduled'],
    ]);
    const views = await waitAllTerminal(
      platform.redis.url,
      results.map((r) => r.id),
      20_000,
    );
    views.forEach((v, i) => {
      expect(v.status).toBe('delivered');
      expect(v.releasedAt).toBeGreaterThanOrEqual(Date.parse(items[i]!.sendAt));
    });
  });
});

describe('a scheduled notification canceled before it is due', () => {
  it('is never released nor sent', async () => {
    const sendAt = inSeconds(1);
    const res = await post({ ...notificationFor(30, 'sms', { prefix: 'sched-cancel' }), sendAt });
    const id = res.body.id as string;
    const cancel = await request(platform.api.url).delete(`/v1/notifications/${id}`).set(auth);
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('canceled');
    const before = (await readLedger(platform.sims.controlUrl)).deliveries;
    // Wait until a later notification, due after it, has been delivered: the canceled one had its chance to go.
    const later = await post({ ...notificationFor(31, 'sms', { prefix: 'sched-cancel' }), sendAt: inSeconds(1.5) });
    const [done] = await waitAllTerminal(platform.redis.url, [later.body.id as string], 20_000);
    expect(done?.status).toBe('delivered');
    expect(await view(id)).toMatchObject({ status: 'canceled', sendAt: Date.parse(sendAt) });
    expect((await readLedger(platform.sims.controlUrl)).deliveries).toBe(before + 1);
  });
});

describe('a bad sendAt', () => {
  it('answers 400 naming sendAt: no offset, not a date-time, further ahead than SCHEDULE_MAX_AHEAD', async () => {
    for (const sendAt of ['2026-12-24T09:00:00', 'tomorrow', 1_800_000_000_000, inSeconds(3_700)]) {
      const res = await post({ ...notificationFor(20, 'push', { prefix: 'sched-bad' }), sendAt });
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['sendAt']);
    }
    const expiring = await post({ ...notificationFor(22, 'push', { prefix: 'sched-bad' }), sendAt: inSeconds(600), expiresAt: inSeconds(300) });
    expect(expiring.status).toBe(400);
    expect(expiring.body.error.details[0].field).toBe('expiresAt');
    const batch = await request(platform.api.url)
      .post('/v1/notifications/batch')
      .set(auth)
      .send({ notifications: [{ ...notificationFor(21, 'push', { prefix: 'sched-bad' }), sendAt: inSeconds(7_200) }] });
    expect(batch.body.results[0].httpStatus).toBe(400);
    expect(batch.body.results[0].error.details[0].field).toBe('notifications.0.sendAt');
  });
});

describe('GET /v1/notifications?status=scheduled (from Redis, with the history off)', () => {
  it("lists this tenant's waiting notifications soonest first, by pages, and none of another tenant's", async () => {
    const recipient = { id: 'sched-list', addresses: { sms: '+905551112299' } };
    const content = { title: 't', body: 'b' };
    const times = [900, 300, 600].map((s) => inSeconds(s));
    const ids: string[] = [];
    for (const [i, sendAt] of times.entries()) {
      ids.push((await post({ eventId: `sched-list-${i}`, priority: 'reminder', recipient, content, sendAt })).body.id as string);
    }
    await request(platform.api.url)
      .post('/v1/notifications')
      .set({ authorization: `Bearer ${OTHER_TENANT_KEY}` })
      .send({ eventId: 'sched-list-other', priority: 'reminder', recipient, content, sendAt: inSeconds(100) });
    const list = (query: Record<string, string>) => request(platform.api.url).get('/v1/notifications').query(query).set(auth);
    const first = await list({ status: 'scheduled', recipientId: 'sched-list', limit: '2' });
    expect(first.status).toBe(200);
    expect(first.body.items.map((v: { id: string }) => v.id)).toEqual([ids[1], ids[2]]);
    expect(first.body.items[0]).toMatchObject({ status: 'scheduled', sendAt: Date.parse(times[1]!) });
    const second = await list({ status: 'scheduled', recipientId: 'sched-list', limit: '2', cursor: first.body.nextCursor as string });
    expect(second.body.items.map((v: { id: string }) => v.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeUndefined();
    // Finished ones are the history's: off here, so 503.
    expect((await list({ status: 'delivered' })).status).toBe(503);
    expect((await list({ status: 'scheduled', cursor: 'bm90LWEtY3Vyc29y' })).status).toBe(400);
  });
});
