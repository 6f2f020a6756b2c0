import type { Redis } from 'ioredis';
import request from 'supertest';
import { readLedger } from '@notify/platform-kit';
import { notificationFor } from '../fixtures/notifications';
import { TEST_API_KEY } from '../harness/platform';
import { waitAllArchived } from '../history/archiver-fixture';
import type { HistoryPlatform } from '../history/history-platform';
import { parkedRows, redisParkState, startParkingPlatform, waitAllParked } from './parking-fixture';

/**
 * Far-future schedules parked in PostgreSQL (docs/scheduling.md, "Parking"), against the real
 * pipeline with the history on: a notification due beyond the park lead leaves only its stub in
 * Redis, answers repeats, GET, the listing and cancels as before, and is promoted back and
 * delivered once, never before its sendAt.
 */
const TENANT = 'tenant-a';
let running: HistoryPlatform;
let redis: Redis;

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ running, redis, stop } = await startParkingPlatform('parking'));
});
afterAll(async () => {
  await stop?.();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const api = () => request(running.platform.api.url);
const post = (body: object) => api().post('/v1/notifications').set(auth).send(body);
const inSeconds = (s: number) => {
  const at = new Date(Date.now() + s * 1000);
  at.setUTCMilliseconds(0);
  return at.toISOString();
};
const archived = (ids: string[]) =>
  waitAllArchived({ redisUrl: running.platform.redis.url, historyUrl: running.historyUrl, store: running.store, tenant: TENANT }, ids);

it('parks a far-future one, answers repeats, GET and the listing from PostgreSQL, then promotes and delivers it once, not early', async () => {
  const sendAt = inSeconds(20);
  const body = { ...notificationFor(1, 'push', { prefix: 'park', priority: 'reminder' }), sendAt };
  const first = await post(body);
  expect(first.status).toBe(202);
  const id = first.body.id as string;
  await waitAllParked(redis, running.historyUrl, [id]);

  const again = await post(body);
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({ id, status: 'scheduled', duplicate: true });
  const moved = await post({ ...body, sendAt: inSeconds(40) });
  expect(moved.status).toBe(422);
  expect(moved.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
  expect((await api().get(`/v1/notifications/${id}`).set(auth)).body).toMatchObject({ id, status: 'scheduled', sendAt: Date.parse(sendAt) });
  const listed = await api().get('/v1/notifications').query({ status: 'scheduled', eventId: body.eventId }).set(auth);
  expect(listed.body.items.map((v: { id: string }) => v.id)).toEqual([id]);

  const [done] = await archived([id]);
  expect(done?.status).toBe('delivered');
  expect(done?.releasedAt).toBeGreaterThanOrEqual(Date.parse(sendAt));
  for (const attempt of done?.attempts ?? []) expect(attempt.startedAt).toBeGreaterThanOrEqual(Date.parse(sendAt));
  const ledger = await readLedger(running.platform.sims.controlUrl);
  expect(ledger.duplicateKeys).toEqual([]);
  expect(ledger.deliveries).toBe(1);
  expect((await parkedRows(running.historyUrl, [id])).size).toBe(0);
  expect((await redisParkState(redis, [id])).stubKeys).toBe(0);
});

it('cancels a parked one by id and by event: never promoted nor sent, ended canceled in the history, a repeat answered canceled', async () => {
  const sendAt = inSeconds(12);
  const single = { ...notificationFor(2, 'sms', { prefix: 'park-cancel' }), sendAt };
  const shared = [3, 4].map((i) => ({ ...notificationFor(i, 'email', { prefix: 'park-cancel' }), eventId: 'park-cancel-event', sendAt }));
  const ids = [] as string[];
  for (const body of [single, ...shared]) ids.push((await post(body)).body.id as string);
  await waitAllParked(redis, running.historyUrl, ids);
  const deliveriesBefore = (await readLedger(running.platform.sims.controlUrl)).deliveries;

  const byId = await api().delete(`/v1/notifications/${ids[0]}`).set(auth);
  expect(byId.status).toBe(200);
  expect(byId.body.status).toBe('canceled');
  const byEvent = await api().delete('/v1/notifications').query({ eventId: 'park-cancel-event' }).set(auth);
  expect(byEvent.body).toMatchObject({ canceled: 2, notCancelable: 0, notFound: 0 });
  expect((await api().delete(`/v1/notifications/${ids[1]}`).set(auth)).status).toBe(200);

  const views = await archived(ids);
  expect(views.map((v) => v.status)).toEqual(['canceled', 'canceled', 'canceled']);
  expect((await parkedRows(running.historyUrl, ids)).size).toBe(0);
  expect((await post(single)).body).toMatchObject({ id: ids[0], status: 'canceled', duplicate: true });
  // Past their sendAt and the promote lead: nothing came back to be sent.
  const later = await post({ ...notificationFor(5, 'sms', { prefix: 'park-cancel' }), sendAt: inSeconds(13) });
  await archived([later.body.id as string]);
  expect((await readLedger(running.platform.sims.controlUrl)).deliveries).toBe(deliveriesBefore + 1);
});

it('keeps under 200 B of Redis per parked notification (MEMORY USAGE of the stubs; records and event index gone)', async () => {
  const sendAt = inSeconds(1_800);
  const bodies = Array.from({ length: 300 }, (_, i) => ({ ...notificationFor(100 + i, 'push', { prefix: 'park-mem' }), sendAt }));
  const res = await api().post('/v1/notifications/batch').set(auth).send({ notifications: bodies });
  const ids = (res.body.results as { id: string }[]).map((r) => r.id);
  await waitAllParked(redis, running.historyUrl, ids);
  const state = await redisParkState(redis, ids);
  process.stdout.write(`parked ${ids.length}: ${state.stubKeys} stub keys, ${(state.stubBytes / ids.length).toFixed(1)} B per parked notification\n`);
  expect(state.due).toBe(0);
  expect(state.stubBytes / ids.length).toBeLessThan(200);
  expect(await redis.keys('{notify}:ev:*')).toEqual([]);
});
