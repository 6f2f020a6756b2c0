import { Redis } from 'ioredis';
import { dueIndexKey, notificationKey, parkedStubPrefix } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { startHistoryPlatform, type HistoryPlatform } from '../history/history-platform';
import { queryRows } from '../history/postgres-fixture';

/** Short leads for tests, in seconds: parked when due more than 4 s ahead, promoted 2 s before. */
export const PARKING_TEST_ENV = { SCHEDULE_PARK_LEAD: '4', SCHEDULE_PROMOTE_LEAD: '2', SCHEDULE_PARK_INTERVAL_MS: '100', SCHEDULE_MAX_AHEAD: '3600' };

/** Which of `ids` have a parked row in PostgreSQL. */
export async function parkedRows(historyUrl: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = await queryRows<{ id: string }>(historyUrl, "SELECT replace(id::text, '-', '') AS id FROM parked_notifications WHERE id = ANY($1::uuid[])", [
    ids,
  ]);
  return new Set(rows.map((r) => r.id));
}

/** How many parked rows PostgreSQL holds in all (a test's database is its own). */
export async function parkedCount(historyUrl: string): Promise<number> {
  const [row] = await queryRows<{ n: string }>(historyUrl, 'SELECT count(*) AS n FROM parked_notifications');
  return Number(row?.n);
}

/** The parked state of `ids` in Redis: full records left, due-index entries, stub keys and their bytes (MEMORY USAGE). */
export async function redisParkState(redis: Redis, ids: readonly string[]): Promise<{ records: number; due: number; stubKeys: number; stubBytes: number }> {
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.exists(notificationKey(id)).zscore(dueIndexKey(), id);
  const replies = (await pipeline.exec()) ?? [];
  let records = 0;
  let due = 0;
  for (let i = 0; i < replies.length; i += 2) {
    records += Number(replies[i]?.[1]);
    if (replies[i + 1]?.[1] !== null) due += 1;
  }
  const keys = await redis.keys(`${parkedStubPrefix()}*`);
  let stubBytes = 0;
  for (const key of keys) stubBytes += Number(await redis.memory('USAGE', key, 'SAMPLES', '0'));
  return { records, due, stubKeys: keys.length, stubBytes };
}

/** How many of `ids` still have a parked stub: a field (the id's 16 bytes) of any stub bucket. */
export async function stubsLeft(redis: Redis, ids: readonly string[]): Promise<number> {
  const held = new Set<string>();
  for (const key of await redis.keys(`${parkedStubPrefix()}*`)) for (const field of await redis.hkeysBuffer(key)) held.add(field.toString('hex'));
  return ids.filter((id) => held.has(id)).length;
}

/** Waits until every one of `ids` is parked: its row in PostgreSQL, no record nor due entry left in Redis. */
export async function waitAllParked(redis: Redis, historyUrl: string, ids: readonly string[], timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `${ids.length} scheduled notifications parked`,
    async () => (await parkedRows(historyUrl, ids)).size === ids.length && (await redisParkState(redis, ids)).records === 0,
    timeoutMs,
    100,
  );
}

/**
 * The history platform of a parking test (`PARKING_TEST_ENV` under `options.env`) and a Redis
 * client on it; `stop` ends both.
 */
export async function startParkingPlatform(
  database: string,
  options: Parameters<typeof startHistoryPlatform>[1] = {},
): Promise<{ running: HistoryPlatform; redis: Redis; stop: () => Promise<void> }> {
  const running = await startHistoryPlatform(database, { ...options, env: { ...PARKING_TEST_ENV, ...options.env } });
  const redis = new Redis(running.platform.redis.url, { maxRetriesPerRequest: 1 });
  return {
    running,
    redis,
    stop: async () => {
      redis.disconnect();
      await running.stop();
    },
  };
}
