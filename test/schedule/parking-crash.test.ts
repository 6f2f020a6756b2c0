import type { Redis } from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import { dueIndexKey, eventIndexKey, notificationKey } from '@notify/core';
import type { ParkedStore } from '@notify/history';
import { Parker, loadParkScripts, type ParkerConfig } from '@notify/pipeline';
import { notificationFor } from '../fixtures/notifications';
import { TEST_API_KEY } from '../harness/platform';
import type { HistoryPlatform } from '../history/history-platform';
import { parkedRows, redisParkState, startParkingPlatform } from './parking-fixture';

/**
 * The parker dying between its steps (its process killed: the step after never runs), driven
 * in-process so each crash lands exactly between two steps: after the PostgreSQL write and
 * before the park script, and after the promote script and before the rows are deleted. A fresh
 * parker then goes on. Nothing may be lost (every notification ends back in Redis as it was),
 * nothing doubled (a stale row never restores a record twice), nothing moved early.
 */
const COUNT = 30;
let running: HistoryPlatform;
let redis: Redis;

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ running, redis, stop } = await startParkingPlatform('parking_crash', { workerCount: 0 }));
});
afterAll(async () => {
  await stop?.();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const PARK: ParkerConfig = { intervalMs: 0, parkLeadMs: 6_000, promoteLeadMs: 3_000, batch: 10 };
/** Promotes everything parked at once (a lead longer than any wait here). */
const PROMOTE_NOW: ParkerConfig = { ...PARK, parkLeadMs: 7_200_000, promoteLeadMs: 3_600_000 };
const killed = () => Promise.reject(new Error('the parker process was killed here'));
const parker = (config: ParkerConfig, store: ParkedStore = running.store.parked) =>
  new Parker({ redis, store, scripts: loadParkScripts(redis, 0), logger: pino({ level: 'silent' }), config, partition: 0 });

/** Every page of `?status=scheduled` (all share one sendAt: ordered by id), ids in order. */
async function listAllScheduled(limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const res = await request(running.platform.api.url)
      .get('/v1/notifications')
      .query({ status: 'scheduled', limit: String(limit), ...(cursor ? { cursor } : {}) })
      .set(auth);
    expect(res.status).toBe(200);
    seen.push(...(res.body.items as { id: string }[]).map((v) => v.id));
    cursor = res.body.nextCursor as string | undefined;
    if (!cursor) break;
  }
  return seen;
}

async function snapshot(ids: readonly string[]) {
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hgetall(notificationKey(id)).call('PEXPIRETIME', notificationKey(id)).zscore(dueIndexKey(), id);
  const replies = (await pipeline.exec()) ?? [];
  return ids.map((_, i) => ({ fields: replies[3 * i]?.[1], expireAt: replies[3 * i + 1]?.[1], due: replies[3 * i + 2]?.[1] }));
}

it('loses and doubles nothing when the parker dies after its PostgreSQL write and after its promote script', async () => {
  const sendAt = new Date(Date.now() + 1_800_000).toISOString();
  const bodies = Array.from({ length: COUNT }, (_, i) => ({ ...notificationFor(i, 'push', { prefix: 'park-crash' }), sendAt }));
  const res = await request(running.platform.api.url).post('/v1/notifications/batch').set(auth).send({ notifications: bodies });
  const ids = (res.body.results as { id: string }[]).map((r) => r.id);
  const before = await snapshot(ids);

  // Killed after writing the first batch's bodies, before the park script: all still in Redis.
  const diesAfterWrite = parker(PARK, { ...running.store.parked, put: async (r) => running.store.parked.put(r).then(killed) });
  await expect(diesAfterWrite.parkBatch()).rejects.toThrow('killed');
  expect((await parkedRows(running.historyUrl, ids)).size).toBe(PARK.batch);
  expect(await snapshot(ids)).toEqual(before);
  await parker(PARK).runPass();
  expect((await parkedRows(running.historyUrl, ids)).size).toBe(COUNT);
  expect(await redisParkState(redis, ids)).toMatchObject({ records: 0, due: 0 });

  // Killed after restoring the first batch, before deleting its rows: those rows are stale now.
  const diesAfterRestore = parker(PROMOTE_NOW, { ...running.store.parked, remove: killed });
  await expect(diesAfterRestore.promoteBatch()).rejects.toThrow('killed');
  expect((await parkedRows(running.historyUrl, ids)).size).toBe(COUNT);
  const restored = (await snapshot(ids)).filter((s) => s.due !== null).length;
  expect(restored).toBe(PROMOTE_NOW.batch);
  // The listing pages through both halves (due index and parked rows) once each: the stale rows are skipped.
  expect(await listAllScheduled(7)).toEqual([...ids].sort());
  // One restored record is canceled meanwhile: its stale row must not bring it back as scheduled.
  const first = ids[(await snapshot(ids)).findIndex((s) => s.due !== null)];
  expect((await request(running.platform.api.url).delete(`/v1/notifications/${first}`).set(auth)).status).toBe(200);

  const { promoted } = await parker(PROMOTE_NOW).runPass();
  expect(promoted).toBe(COUNT - PROMOTE_NOW.batch);
  expect((await parkedRows(running.historyUrl, ids)).size).toBe(0);
  expect((await redisParkState(redis, ids)).stubKeys).toBe(0);
  const after = await snapshot(ids);
  ids.forEach((id, i) => {
    if (id === first) {
      expect((after[i]?.fields as Record<string, string>).status).toBe('canceled');
      return;
    }
    // Back exactly as intake left it: the same fields, the same expiry, due at its sendAt (never sooner).
    expect(after[i]).toEqual(before[i]);
  });
  // Each rejoined its event index (cancel by event finds it again; the canceled one leaves it when archived).
  const events = await Promise.all(bodies.map((b) => redis.smembers(eventIndexKey('tenant-a', b.eventId))));
  expect(events.flat().sort()).toEqual([...ids].sort());
});
