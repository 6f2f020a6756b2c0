/**
 * The archiver side of `npm run bench:history` (issue 12), also runnable alone:
 *   npx tsx bench/history/redis-side.ts [--count 100000] [--archivers 2] [--batch 1000] [--json]
 * On a private redis-server and a private PostgreSQL (fsync off), `count` notifications are taken
 * to a terminal state through the pipeline's own scripts (intake, begin-attempt, finish-attempt /
 * finish-notification, history on), then archived by the real Archiver (claim → pipelined read →
 * insertBatch → compact). It reports:
 *   - archival throughput end to end (records in Redis → committed in PostgreSQL → compacted);
 *   - Redis bytes per terminal notification: used_memory delta over the run and the sum of
 *     MEMORY USAGE over the compact entries, against the full terminal record it replaces.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { archiveQueueKey, idempotencyBucketPrefix, idempotencyMetaKey, notificationKey, type Channel } from '@notify/core';
import { openHistoryStore, type HistoryStore } from '@notify/history';
import { Archiver, DEFAULT_ARCHIVER_CONFIG, loadScripts, type Scripts } from '@notify/pipeline';
import { ensurePostgresBinaries, startPrivatePostgres, startPrivateRedis } from '@notify/platform-kit';

export interface RedisSideOptions {
  /** A PostgreSQL server url; a fresh database is created on it for this run. */
  postgresUrl: string;
  log: (line: string) => void;
  /** Terminal notifications measured (>= 100,000 for the issue's figure). */
  count?: number;
  /** Archivers sharing the queue (one per worker in production). */
  archivers?: number;
  batchSize?: number;
}

export interface RedisSideFigures {
  count: number;
  archivers: number;
  batchSize: number;
  archivedPerSecond: number;
  archiveSeconds: number;
  /** Redis CPU the archival costs per notification (claim, read, compact), from INFO commandstats. */
  redisMicrosPerNotification: number;
  rowsInHistory: number;
  fullRecordBytesPerNotification: number;
  compactBytesPerNotification: number;
  compactMemoryUsagePerNotification: number;
  bucketKeys: number;
  bucketEncodings: Record<string, number>;
}

export interface RedisSideResult {
  figures: Record<string, number | string>;
  markdown?: string;
}

const TENANT = 'bench-redis-side';
const PLAN: Channel[] = ['push', 'sms', 'email'];
const CHUNK = 2_000;

const idOf = (i: number) => createHash('sha256').update(`redis-side/${i}`).digest('hex').slice(0, 32);

/**
 * Takes `count` notifications to a terminal state through the pipeline's scripts (history on, so
 * each joins the archive queue): nine in ten delivered on push, one in ten failed after a transient
 * push error, a minute ago (so every one is due on the archive queue at once). Returns their ids.
 */
export async function seedTerminalNotifications(scripts: Scripts, count: number, now = Date.now() - 60_000): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += CHUNK) {
    const chunk = Array.from({ length: Math.min(CHUNK, count - start) }, (_, k) => start + k);
    await Promise.all(
      chunk.map(async (i) => {
        const id = idOf(i);
        const rh = idOf(-i - 1);
        const content = {
          title: 'Your order has shipped',
          body: `Order ${100_000 + i} is on its way and arrives tomorrow between 9:00 and 12:00.`,
          data: { orderId: String(100_000 + i) },
        };
        const addresses = { push: `push-token-${id}`, sms: `+90555${String(i).padStart(7, '0')}`, email: `user${i}@example.com` };
        const addressHashes = Object.fromEntries(PLAN.map((c) => [c, createHash('sha256').update(addresses[c]).digest('hex')]));
        await scripts.intake({
          id,
          fingerprint: createHash('sha256').update(`payload/${i}`).digest('hex'),
          tenant: TENANT,
          eventId: `event-${i}`,
          recipientId: `recipient-${i}`,
          rh,
          priority: i % 3 === 0 ? 'urgent' : 'reminder',
          plan: PLAN,
          firstChannel: 'push',
          content,
          addresses,
          addressHashes,
          now,
          recordTtlSeconds: 7 * 86_400,
          skips: [],
        });
        await scripts.beginAttempt({ id, rh, step: 1, channel: 'push', now: now + 5, budget: 3 });
        if (i % 10 === 9) {
          await scripts.finishAttempt({
            id,
            rh,
            channel: 'push',
            step: 1,
            outcome: 'transient',
            errorClass: 'http-503',
            message: 'provider answered 503',
            now: now + 60,
            durationMs: 55,
            suppressionTtlSeconds: 0,
            spent: true,
          });
          await scripts.finishNotification({ id, fromStep: 1, status: 'failed', reason: 'budget-exhausted', now: now + 61 });
        } else {
          await scripts.finishAttempt({
            id,
            rh,
            channel: 'push',
            step: 1,
            outcome: 'delivered',
            now: now + 40,
            durationMs: 35,
            suppressionTtlSeconds: 0,
            spent: true,
          });
        }
      }),
    );
    ids.push(...chunk.map(idOf));
  }
  return ids;
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1]);
}

/** Redis CPU spent in commands so far (INFO commandstats, µs summed over every command). */
async function commandMicros(redis: Redis): Promise<number> {
  const stats = await redis.info('commandstats');
  return [...stats.matchAll(/,usec=(\d+),/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** The measurement on a given Redis (empty) and history store. */
export async function measureRedisSide(
  redis: Redis,
  store: HistoryStore,
  o: { count: number; archivers: number; batchSize: number; log: (line: string) => void },
): Promise<Omit<RedisSideFigures, 'rowsInHistory'>> {
  const scripts = loadScripts(redis, { archive: true });
  const silent = pino({ level: 'silent' });
  await redis.flushdb();
  const before = await usedMemory(redis);
  o.log(`seeding ${o.count.toLocaleString('en')} terminal notifications through the pipeline's scripts`);
  await seedTerminalNotifications(scripts, o.count);
  const full = await usedMemory(redis);
  if ((await redis.zcard(archiveQueueKey())) !== o.count) throw new Error('not every terminal notification reached the archive queue');
  // The full records alone (the archive queue entries are counted apart: they exist only while waiting).
  const queueBytes = Number(await redis.memory('USAGE', archiveQueueKey(), 'SAMPLES', 0));

  o.log(`archiving with ${o.archivers} archiver(s), batches of ${o.batchSize}`);
  const config = { ...DEFAULT_ARCHIVER_CONFIG, batchSize: o.batchSize };
  const archivers = Array.from({ length: o.archivers }, () => new Archiver({ redis, scripts, store, logger: silent, config }));
  const cpuBefore = await commandMicros(redis);
  const started = process.hrtime.bigint();
  const results = await Promise.all(
    archivers.map(async (a) => {
      let archived = 0;
      for (let pass = 0; pass < 100_000; pass += 1) {
        const r = await a.drain();
        archived += r.archived;
        if (r.claimed === 0) break;
      }
      return archived;
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const redisMicrosPerNotification = ((await commandMicros(redis)) - cpuBefore) / o.count;
  const archived = results.reduce((s, n) => s + n, 0);
  if (archived !== o.count) throw new Error(`archived ${archived} of ${o.count}`);
  if ((await redis.zcard(archiveQueueKey())) !== 0 || (await scanKeys(redis, `${notificationKey('')}*`)).length !== 0) {
    throw new Error('full records or queue entries left in Redis after archival');
  }
  const after = await usedMemory(redis);
  const buckets = await scanKeys(redis, `${idempotencyBucketPrefix()}*`);
  let usage = Number(await redis.memory('USAGE', idempotencyMetaKey(), 'SAMPLES', 0));
  const encodings: Record<string, number> = {};
  for (let i = 0; i < buckets.length; i += 500) {
    const pipeline = redis.pipeline();
    for (const key of buckets.slice(i, i + 500)) pipeline.memory('USAGE', key, 'SAMPLES', 0).object('ENCODING', key);
    const rows = (await pipeline.exec()) ?? [];
    for (let r = 0; r < rows.length; r += 2) {
      usage += Number(rows[r]?.[1]);
      const encoding = String(rows[r + 1]?.[1]);
      encodings[encoding] = (encodings[encoding] ?? 0) + 1;
    }
  }
  return {
    count: o.count,
    archivers: o.archivers,
    batchSize: o.batchSize,
    archivedPerSecond: o.count / seconds,
    archiveSeconds: seconds,
    redisMicrosPerNotification,
    fullRecordBytesPerNotification: (full - before - queueBytes) / o.count,
    compactBytesPerNotification: (after - before) / o.count,
    compactMemoryUsagePerNotification: usage / o.count,
    bucketKeys: buckets.length,
    bucketEncodings: encodings,
  };
}

export function formatRedisSide(f: RedisSideFigures): string {
  const n0 = (n: number) => Math.round(n).toLocaleString('en');
  return [
    `Redis side (archiver): ${n0(f.count)} terminal notifications, ${f.archivers} archiver(s), batches of ${f.batchSize}`,
    `  archival throughput (Redis → PostgreSQL commit → compacted): ${n0(f.archivedPerSecond)} notifications/s (${f.archiveSeconds.toFixed(1)} s; ${n0(f.rowsInHistory)} rows in history)   [target >= 5,000]`,
    `  Redis CPU of archival: ${f.redisMicrosPerNotification.toFixed(1)} µs per notification (claim + read + compact, INFO commandstats)`,
    `  Redis bytes per terminal notification: ${f.compactBytesPerNotification.toFixed(1)} B (used_memory delta), ${f.compactMemoryUsagePerNotification.toFixed(1)} B (MEMORY USAGE sum)   [target <= 120]`,
    `    the full terminal record it replaces: ${f.fullRecordBytesPerNotification.toFixed(1)} B (used_memory delta)`,
    `    ${n0(f.bucketKeys)} bucket keys (${Object.entries(f.bucketEncodings)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  ].join('\n');
}

async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return serverUrl.replace(/\/[^/]*$/, `/${name}`);
}

async function countRows(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM history_notifications')).rows[0]?.n);
  } finally {
    await client.end();
  }
}

/** bench/history.ts's hook: a private Redis, a fresh database on the given PostgreSQL. */
export async function runRedisSide(options: RedisSideOptions): Promise<RedisSideResult & { detail: RedisSideFigures }> {
  const count = options.count ?? 100_000;
  const url = await freshDatabase(options.postgresUrl, 'redis_side');
  const server = await startPrivateRedis({ persistence: 'none' });
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  const store = await openHistoryStore({ url, retentionDays: 90 });
  try {
    const measured = await measureRedisSide(redis, store, {
      count,
      archivers: options.archivers ?? 2,
      batchSize: options.batchSize ?? 1_000,
      log: options.log,
    });
    const detail: RedisSideFigures = { ...measured, rowsInHistory: await countRows(url) };
    if (detail.rowsInHistory !== count) throw new Error(`history holds ${detail.rowsInHistory} rows, expected ${count}`);
    const { bucketEncodings: _e, ...numbers } = detail;
    return { figures: numbers, markdown: formatRedisSide(detail), detail };
  } finally {
    await store.close();
    await redis.quit();
    await server.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '100000' },
      archivers: { type: 'string', default: '2' },
      batch: { type: 'string', default: '1000' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const count = Number(values.count);
  const archivers = Number(values.archivers);
  const batchSize = Number(values.batch);
  if (!Number.isInteger(count) || count < 1 || count > 10_000_000) throw new Error('--count must be an integer in 1..10000000');
  if (!Number.isInteger(archivers) || archivers < 1 || archivers > 16) throw new Error('--archivers must be an integer in 1..16');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 5_000) throw new Error('--batch must be an integer in 1..5000');
  const log = (line: string) => process.stderr.write(`[bench:history redis-side] ${line}\n`);
  await ensurePostgresBinaries({ env: process.env, log });
  const postgres = await startPrivatePostgres();
  try {
    const result = await runRedisSide({ postgresUrl: postgres.url, log, count, archivers, batchSize });
    process.stdout.write(values.json ? `${JSON.stringify(result.detail, null, 2)}\n` : `${result.markdown}\n`);
  } finally {
    await postgres.stop();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
