import type { Redis } from 'ioredis';
import request from 'supertest';
import { readLedger } from '@notify/platform-kit';
import { notificationFor } from '../fixtures/notifications';
import { ledgerDeliveries } from '../harness/ledger-keys';
import { TEST_API_KEY } from '../harness/platform';
import { waitAllArchived } from '../history/archiver-fixture';
import type { HistoryPlatform } from '../history/history-platform';
import { parkedRows, redisParkState, startParkingPlatform, stubsLeft, waitAllParked } from './parking-fixture';

/**
 * Far-future schedules parked in PostgreSQL (docs/scheduling.md, "Parking"), against the real
 * pipeline with the history on: a notification due beyond the park lead leaves only its stub in
 * Redis, answers repeats, GET, the listing and cancels as before, and is promoted back and
 * delivered once, never before its sendAt. The first two wait out their sendAt side by side
 * (concurrent): each counts the deliveries of its own notifications only.
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
/**
 * Due this far ahead: beyond the park lead (4 s) by the time a parker pass (every 100 ms) runs,
 * with seconds left before the promote lead (2 s) for what a test asks while it is parked.
 */
const PARKED_AHEAD_S = 8;
const inSeconds = (s: number) => {
  const at = new Date(Date.now() + s * 1000);
  at.setUTCMilliseconds(0);
  return at.toISOString();
};
const archived = (ids: string[]) =>
  waitAllArchived({ redisUrl: running.platform.redis.url, historyUrl: running.historyUrl, store: running.store, tenant: TENANT }, ids);

it.concurrent('parks a far-future one, answers repeats, GET and the listing from PostgreSQL, then promotes and delivers it once, not early', async () => {
  const sendAt = inSeconds(PARKED_AHEAD_S);
  const body = { ...notificationFor(1, 'push', { prefix: 'park', priority: 'reminder' }), sendAt };
  const first = await post(body);
  expect(first.status).toBe(202);
  const id = first.body.id as string;
  await waitAllParked(redis, running.historyUrl, [id]);

  const again = await post(body);
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({ id, status: 'scheduled', duplicate: true });
  const moved = await post({ ...body, sendAt: inSeconds(2 * PARKED_AHEAD_S) });
  expect(moved.status).toBe(422);
  expect(moved.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
  expect((await api().get(`/v1/notifications/${id}`).set(auth)).body).toMatchObject({ id, status: 'scheduled', sendAt: Date.parse(sendAt) });
  const listed = await api().get('/v1/notifications').query({ status: 'scheduled', eventId: body.eventId }).set(auth);
  expect(listed.body.items.map((v: { id: string }) => v.id)).toEqual([id]);
  // All of the above was answered while it was parked (not yet promoted).
  expect((await parkedRows(running.historyUrl, [id])).size).toBe(1);
  expect(await stubsLeft(redis, [id])).toBe(1);

  const [done] = await archived([id]);
  expect(done?.status).toBe('delivered');
  expect(done?.releasedAt).toBeGreaterThanOrEqual(Date.parse(sendAt));
  for (const attempt of done?.attempts ?? []) expect(attempt.startedAt).toBeGreaterThanOrEqual(Date.parse(sendAt));
  expect((await readLedger(running.platform.sims.controlUrl)).duplicateKeys).toEqual([]);
  expect((await ledgerDeliveries(running.platform.sims.controlUrl, [id]))[0]).toHaveLength(1);
  expect((await parkedRows(running.historyUrl, [id])).size).toBe(0);
  // Its own stub (the other test's notifications may still have theirs).
  expect(await stubsLeft(redis, [id])).toBe(0);
});

it.concurrent('cancels a parked one by id and by event: never promoted nor sent, ended canceled in the history, a repeat answered canceled', async () => {
  const sendAt = inSeconds(PARKED_AHEAD_S);
  const single = { ...notificationFor(2, 'sms', { prefix: 'park-cancel' }), sendAt };
  const shared = [3, 4].map((i) => ({ ...notificationFor(i, 'email', { prefix: 'park-cancel' }), eventId: 'park-cancel-event', sendAt }));
  const ids = [] as string[];
  for (const body of [single, ...shared]) ids.push((await post(body)).body.id as string);
  await waitAllParked(redis, running.historyUrl, ids);

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
  // One due a second after them, delivered: their sendAt and promote lead are past, and nothing came back to be sent.
  const laterAt = new Date(Math.max(Date.parse(sendAt) + 1_000, Date.now() + 500)).toISOString();
  const later = await post({ ...notificationFor(5, 'sms', { prefix: 'park-cancel' }), sendAt: laterAt });
  const laterId = later.body.id as string;
  expect((await archived([laterId]))[0]?.status).toBe('delivered');
  const deliveries = await ledgerDeliveries(running.platform.sims.controlUrl, [...ids, laterId]);
  expect(deliveries.map((d) => d.length)).toEqual([0, 0, 0, 1]);
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
