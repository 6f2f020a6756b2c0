import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { archiveQueueKey, notificationKey, type NotificationView } from '@notify/core';
import type { HistoryStore } from '@notify/history';
import { waitFor, type PrivatePostgres } from '@notify/platform-kit';
import { queryRows } from './postgres-fixture';

/** The env that turns history on for the api and the workers of a test platform, archiving fast. */
export function historyEnv(databaseUrl: string): Record<string, string> {
  return { HISTORY_ENABLED: 'true', DATABASE_URL: databaseUrl, ARCHIVER_INTERVAL_MS: '100', ARCHIVER_BATCH_SIZE: '200' };
}

/** How many of `ids` the history holds, and how many rows they take (a repeat would show as more rows). */
export async function historyCounts(url: string, ids: readonly string[]): Promise<{ rows: number; distinct: number }> {
  const [row] = await queryRows<{ rows: string; distinct: string }>(
    url,
    'SELECT count(*) AS rows, count(DISTINCT id) AS distinct FROM history_notifications WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return { rows: Number(row?.rows), distinct: Number(row?.distinct) };
}

/** How many of `ids` still have a full record in Redis, and how many ids wait on the archive queue. */
export async function redisLeft(redisUrl: string, ids: readonly string[]): Promise<{ fullRecords: number; queued: number }> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.exists(notificationKey(id));
    const rows = (await pipeline.exec()) ?? [];
    return { fullRecords: rows.reduce((n, [, v]) => n + Number(v), 0), queued: await redis.zcard(archiveQueueKey()) };
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until every id is in the history and Redis holds no full record of any of them (only
 * compact idempotency entries); returns their views read back from PostgreSQL, in `ids` order.
 */
export async function waitAllArchived(
  o: { redisUrl: string; historyUrl: string; store: HistoryStore; tenant: string },
  ids: readonly string[],
  timeoutMs = 120_000,
): Promise<NotificationView[]> {
  await waitFor(
    `${ids.length} notifications archived to the history and compacted in Redis`,
    async () => {
      const { distinct } = await historyCounts(o.historyUrl, ids);
      if (distinct < ids.length) return false;
      return (await redisLeft(o.redisUrl, ids)).fullRecords === 0;
    },
    timeoutMs,
    250,
  );
  const views = await Promise.all(ids.map((id) => o.store.get(o.tenant, id)));
  return views.map((v, i) => {
    if (!v) throw new Error(`notification ${ids[i]} is not in the history`);
    return v;
  });
}

/**
 * Stops the private PostgreSQL as an outage would (fast shutdown of the postmaster itself: the
 * runuser wrapper does not pass a signal on), keeping its data and port for `restart()`.
 */
export async function stopPostgres(server: PrivatePostgres): Promise<void> {
  const pid = Number(readFileSync(join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(pid, 'SIGINT');
  await waitFor(
    'the postmaster to exit',
    () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    },
    30_000,
    50,
  );
  await server.kill();
}

/**
 * The postmaster and every process it forked. Each backend is a session of its own (PostgreSQL
 * calls setsid), so the server's process group does not hold them.
 */
function postgresProcesses(server: PrivatePostgres): number[] {
  const postmaster = Number(readFileSync(join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .map(Number)
    .filter(Boolean);
  return [postmaster, ...children];
}

const signalAll = (pids: readonly number[], signal: NodeJS.Signals) => {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
};

/** Freezes the private PostgreSQL (SIGSTOP to the postmaster and every backend): connections stay open, every query hangs. */
export function freezePostgres(server: PrivatePostgres): void {
  signalAll(postgresProcesses(server), 'SIGSTOP');
}

/** A crash: SIGKILL to the postmaster and every backend at once (frozen or not); its data and port stay for `restart()`. */
export async function crashPostgres(server: PrivatePostgres): Promise<void> {
  signalAll(postgresProcesses(server), 'SIGKILL');
  await server.kill();
}

/**
 * The archive queue as the archivers see it: ids claimed by a batch in flight (their lease ends
 * in the future) and the due time of the oldest id no archiver has claimed (undefined: none).
 */
export async function archiveQueueState(redisUrl: string): Promise<{ claimed: number; oldestUnclaimedAgeMs: number | undefined }> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const [seconds, micros] = await redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const claimed = await redis.zcount(archiveQueueKey(), `(${now}`, '+inf');
    const [, oldest] = await redis.zrangebyscore(archiveQueueKey(), '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1);
    return { claimed, oldestUnclaimedAgeMs: oldest === undefined ? undefined : now - Number(oldest) };
  } finally {
    redis.disconnect();
  }
}
