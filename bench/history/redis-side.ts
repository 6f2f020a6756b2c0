/**
 * The archiver side of `npm run bench:history`, also runnable alone:
 *   npx tsx bench/history/redis-side.ts [--count 100000] [--archivers 2] [--batch 1000]
 *     [--insert copy|staging|unnest] [--concurrency 2] [--processes 0] [--no-reference] [--json]
 * On a private redis-server and a private PostgreSQL (fsync off), `count` notifications are taken
 * to a terminal state through the pipeline's own scripts (intake, begin-attempt, finish-attempt /
 * finish-notification, history on), then archived by the real Archiver (claim → pipelined read →
 * insertBatch → compact). It reports:
 *   - archival throughput end to end (records in Redis → committed in PostgreSQL → compacted);
 *   - Redis bytes per terminal notification: used_memory delta over the run and the sum of
 *     MEMORY USAGE over the compact entries, against the full terminal record it replaces.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { archiveQueueKey, idempotencyBucketPrefix, idempotencyMetaKey, notificationKey, type Channel } from '@notify/core';
import { COPY_COLUMNS, openHistoryStore, type HistoryInsertMethod, type HistoryStore } from '@notify/history';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
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
  /** The server's data directory: its processes' CPU is measured (/proc). */
  postgresDataDir?: string;
  /** insertBatch's method (default the store's: 'copy'). */
  insertMethod?: HistoryInsertMethod;
  /** Time a bare COPY of the same rows after the archival (default true). */
  reference?: boolean;
  /** Batches in flight per archiver (default the archiver's, 2). */
  concurrency?: number;
  /** > 0: the archivers run in this many child processes, `archivers` in each (default 0: in this one). */
  processes?: number;
}

export interface RedisSideFigures {
  count: number;
  archivers: number;
  /** Child processes the archivers ran in (0: the bench's own). */
  processes: number;
  concurrency: number;
  batchSize: number;
  archivedPerSecond: number;
  archiveSeconds: number;
  /** Redis CPU the archival costs per notification (claim, read, compact): the server process's CPU (INFO cpu). */
  redisMicrosPerNotification: number;
  rowsInHistory: number;
  fullRecordBytesPerNotification: number;
  compactBytesPerNotification: number;
  compactMemoryUsagePerNotification: number;
  bucketKeys: number;
  bucketEncodings: Record<string, number>;
  profile: ArchivalProfile;
  /** A plain binary COPY of the same rows into the same (emptied) table, timed in the same run. */
  reference?: { rows: number; seconds: number; perSecond: number };
}

/** Where the archival's time goes (all per archived notification). */
export interface ArchivalProfile {
  /** The redis-server process's CPU (INFO cpu: used_cpu_user + used_cpu_sys). */
  redisCpuMicrosPerNotification: number;
  /** INFO commandstats summed: wall time inside commands, a script's inner commands counted again (grows with the machine's load; kept as a breakdown). */
  commandstatsMicrosPerNotification: number;
  perCommand: Record<string, { callsPerNotification: number; microsPerNotification: number }>;
  /** This process's CPU while archiving (the archivers run here). */
  nodeCpuMicrosPerNotification: number;
  /** The PostgreSQL server's processes (postmaster and children, /proc). */
  postgresCpuMicrosPerNotification?: number;
  /** Wall time inside insertBatch, summed over the archivers. */
  insertWallMicrosPerNotification: number;
  /** 1-minute load average before and after archiving (the machine is shared). */
  loadAverage: [number, number];
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
        // One in ten: a transient push error, then failed; the others delivered on push.
        const failed = i % 10 === 9;
        const outcome = failed
          ? { outcome: 'transient' as const, errorClass: 'http-503', message: 'provider answered 503', now: now + 60, durationMs: 55 }
          : { outcome: 'delivered' as const, now: now + 40, durationMs: 35 };
        await scripts.finishAttempt({ id, rh, channel: 'push', step: 1, ...outcome, suppressionTtlSeconds: 0, spent: true });
        if (failed) await scripts.finishNotification({ id, fromStep: 1, status: 'failed', reason: 'budget-exhausted', now: now + 61 });
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

/** INFO commandstats: µs (wall time inside the command, scripts' inner commands counted again) and calls per command. */
async function commandStats(redis: Redis): Promise<Map<string, { calls: number; usec: number }>> {
  const stats = await redis.info('commandstats');
  const out = new Map<string, { calls: number; usec: number }>();
  for (const m of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+),/gm)) out.set(m[1] as string, { calls: Number(m[2]), usec: Number(m[3]) });
  return out;
}

/** The Redis server process's CPU so far (INFO cpu, user + system), µs. */
async function redisCpuMicros(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const v = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (v('used_cpu_user') + v('used_cpu_sys')) * 1e6;
}

const CLOCK_TICK_US = 10_000; // USER_HZ = 100 on Linux

/** CPU (µs) of a process, its live children and its exited children as /proc shows them now: the PostgreSQL server's postmaster and backends. */
export function processTreeCpuMicros(rootPid: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const ppid = Number(fields[1]);
    if (pid !== rootPid && ppid !== rootPid) continue;
    total += (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_US;
    // The postmaster's cutime + cstime: the backends that have exited (closed connections).
    if (pid === rootPid) total += (Number(fields[13]) + Number(fields[14])) * CLOCK_TICK_US;
  }
  return total;
}

/** The postmaster's pid of a server's data directory (first line of postmaster.pid). */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
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

/** Drains until a pass finds nothing due; the notifications it archived. */
async function drainAll(archiver: Archiver): Promise<number> {
  let archived = 0;
  for (let pass = 0; pass < 100_000; pass += 1) {
    const r = await archiver.drain();
    archived += r.archived;
    if (r.claimed === 0) break;
  }
  return archived;
}

interface ChildReport {
  archived: number;
  /** The child's CPU from 'go' to done (user + system). */
  cpuMicros: number;
  insertMicros: number;
}

/**
 * Archiver processes (one per worker in production): each connects and loads the scripts, says
 * 'ready', and on 'go' drains the queue with its archivers, then reports one JSON line.
 */
async function startArchiverProcesses(
  count: number,
  o: { archivers: number; batchSize: number; concurrency: number; redisUrl?: string; postgresUrl?: string; insertMethod?: HistoryInsertMethod },
): Promise<{ go(): Promise<ChildReport> }[]> {
  if (!o.redisUrl || !o.postgresUrl) throw new Error('archiver processes need the Redis and PostgreSQL urls');
  const args = [
    '--import',
    'tsx',
    __filename,
    '--child',
    '--redis-url',
    o.redisUrl,
    '--postgres-url',
    o.postgresUrl,
    '--archivers',
    String(o.archivers),
    '--batch',
    String(o.batchSize),
    '--concurrency',
    String(o.concurrency),
    '--insert',
    o.insertMethod ?? 'copy',
  ];
  return Promise.all(
    Array.from({ length: count }, async (): Promise<{ go(): Promise<ChildReport> }> => {
      const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      const next = () =>
        new Promise<string>((resolve, reject) => {
          lines.once('line', resolve);
          child.once('exit', (code) => reject(new Error(`archiver process exited (${code}) early`)));
        });
      if ((await next()) !== 'ready') throw new Error('archiver process did not say ready');
      return {
        async go() {
          const report = next();
          child.stdin?.write('go\n');
          const r = JSON.parse(await report) as ChildReport;
          child.stdin?.end();
          return r;
        },
      };
    }),
  );
}

/** `store` as the archivers see it, adding up the wall time of each insertBatch (µs, whole). */
function timedInserts(store: HistoryStore): { store: Pick<HistoryStore, 'insertBatch'>; micros: () => number } {
  let insertNs = 0n;
  return {
    store: {
      async insertBatch(records) {
        const t0 = process.hrtime.bigint();
        try {
          await store.insertBatch(records);
        } finally {
          insertNs += process.hrtime.bigint() - t0;
        }
      },
    },
    micros: () => Number(insertNs / 1000n),
  };
}

/** A child process's side of startArchiverProcesses. */
async function runArchiverChild(v: {
  redisUrl: string;
  postgresUrl: string;
  archivers: number;
  batchSize: number;
  concurrency: number;
  insertMethod: HistoryInsertMethod;
}) {
  const redis = new Redis(v.redisUrl, { maxRetriesPerRequest: 1 });
  const store = await openHistoryStore({ url: v.postgresUrl, retentionDays: 90, insertMethod: v.insertMethod });
  try {
    const scripts = loadScripts(redis, { archive: true });
    await redis.ping();
    const timed = timedInserts(store);
    const config = { ...DEFAULT_ARCHIVER_CONFIG, batchSize: v.batchSize, concurrency: v.concurrency };
    const archivers = Array.from(
      { length: v.archivers },
      () => new Archiver({ redis, scripts, store: timed.store, logger: pino({ level: 'silent' }), config }),
    );
    const lines = createInterface({ input: process.stdin });
    const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
    process.stdout.write('ready\n');
    await go;
    const cpu = process.cpuUsage();
    const results = await Promise.all(archivers.map(drainAll));
    const used = process.cpuUsage(cpu);
    const report: ChildReport = { archived: results.reduce((s, n) => s + n, 0), cpuMicros: used.user + used.system, insertMicros: timed.micros() };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    lines.close();
  } finally {
    await store.close();
    await redis.quit();
  }
}

/** The measurement on a given Redis (empty) and history store. */
export async function measureRedisSide(
  redis: Redis,
  store: HistoryStore,
  o: {
    count: number;
    archivers: number;
    batchSize: number;
    log: (line: string) => void;
    postgresPid?: number;
    /** Batches in flight per archiver (ArchiverConfig.concurrency). */
    concurrency?: number;
    /** > 0: the archivers run in this many child processes (`archivers` in each), as one per worker. */
    processes?: number;
    /** For the child processes. */
    redisUrl?: string;
    postgresUrl?: string;
    insertMethod?: HistoryInsertMethod;
  },
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

  const processes = o.processes ?? 0;
  const concurrency = o.concurrency ?? DEFAULT_ARCHIVER_CONFIG.concurrency;
  o.log(
    `archiving with ${o.archivers} archiver(s)${processes > 0 ? ` in each of ${processes} child processes` : ''}, ${concurrency} batch(es) in flight each, batches of ${o.batchSize}`,
  );
  const config = { ...DEFAULT_ARCHIVER_CONFIG, batchSize: o.batchSize, concurrency };
  const children = processes > 0 ? await startArchiverProcesses(processes, { ...o, concurrency }) : [];
  // The store as the archivers see it, timing each insertBatch (wall time, PostgreSQL's share of a batch).
  const timed = timedInserts(store);
  let insertMicros = 0;
  const archivers = Array.from({ length: o.archivers }, () => new Archiver({ redis, scripts, store: timed.store, logger: silent, config }));
  const statsBefore = await commandStats(redis);
  const redisCpuBefore = await redisCpuMicros(redis);
  const pgCpuBefore = o.postgresPid === undefined ? undefined : processTreeCpuMicros(o.postgresPid);
  const nodeCpuBefore = process.cpuUsage();
  const loadBefore = loadavg()[0] as number;
  const started = process.hrtime.bigint();
  let childCpuMicros = 0;
  let results: number[];
  if (children.length > 0) {
    const reports = await Promise.all(children.map((c) => c.go()));
    results = reports.map((r) => r.archived);
    childCpuMicros = reports.reduce((sum, r) => sum + r.cpuMicros, 0);
    insertMicros = reports.reduce((sum, r) => sum + r.insertMicros, 0);
  } else {
    results = await Promise.all(archivers.map(drainAll));
    insertMicros = timed.micros();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const ownCpu = process.cpuUsage(nodeCpuBefore);
  const nodeCpu = { user: ownCpu.user + childCpuMicros, system: ownCpu.system };
  const pgCpu = pgCpuBefore === undefined ? undefined : processTreeCpuMicros(o.postgresPid as number) - pgCpuBefore;
  const redisCpu = (await redisCpuMicros(redis)) - redisCpuBefore;
  const statsAfter = await commandStats(redis);
  const perCommand: Record<string, { callsPerNotification: number; microsPerNotification: number }> = {};
  let commandstatsMicros = 0;
  for (const [name, a] of statsAfter) {
    const b = statsBefore.get(name) ?? { calls: 0, usec: 0 };
    // INFO itself is the bench's, not the archiver's.
    if (a.calls === b.calls || name === 'info') continue;
    perCommand[name] = { callsPerNotification: (a.calls - b.calls) / o.count, microsPerNotification: (a.usec - b.usec) / o.count };
    commandstatsMicros += a.usec - b.usec;
  }
  const profile: ArchivalProfile = {
    redisCpuMicrosPerNotification: redisCpu / o.count,
    commandstatsMicrosPerNotification: commandstatsMicros / o.count,
    perCommand,
    nodeCpuMicrosPerNotification: (nodeCpu.user + nodeCpu.system) / o.count,
    ...(pgCpu === undefined ? {} : { postgresCpuMicrosPerNotification: pgCpu / o.count }),
    insertWallMicrosPerNotification: insertMicros / o.count,
    loadAverage: [loadBefore, loadavg()[0] as number],
  };
  const redisMicrosPerNotification = profile.redisCpuMicrosPerNotification;
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
    processes,
    concurrency,
    batchSize: o.batchSize,
    archivedPerSecond: o.count / seconds,
    archiveSeconds: seconds,
    redisMicrosPerNotification,
    fullRecordBytesPerNotification: (full - before - queueBytes) / o.count,
    compactBytesPerNotification: (after - before) / o.count,
    compactMemoryUsagePerNotification: usage / o.count,
    bucketKeys: buckets.length,
    bucketEncodings: encodings,
    profile,
  };
}

export function formatRedisSide(f: RedisSideFigures): string {
  const n0 = (n: number) => Math.round(n).toLocaleString('en');
  return [
    `Redis side (archiver): ${n0(f.count)} terminal notifications, ${f.archivers} archiver(s)${f.processes > 0 ? ` in each of ${f.processes} processes` : ''}, ${f.concurrency} batch(es) in flight each, batches of ${f.batchSize}`,
    `  archival throughput (Redis → PostgreSQL commit → compacted): ${n0(f.archivedPerSecond)} notifications/s (${f.archiveSeconds.toFixed(1)} s; ${n0(f.rowsInHistory)} rows in history)   [target >= 5,000]`,
    ...(f.reference
      ? [
          `  bare reference, same run: one binary COPY of the same ${n0(f.reference.rows)} rows into the same (emptied) table: ${n0(f.reference.perSecond)} rows/s (${f.reference.seconds.toFixed(2)} s)`,
        ]
      : []),
    `  Redis CPU of archival: ${f.redisMicrosPerNotification.toFixed(1)} µs per notification (redis-server process CPU, INFO cpu; commandstats sum ${f.profile.commandstatsMicrosPerNotification.toFixed(1)} µs)`,
    `    per command (calls, commandstats µs per notification): ${Object.entries(f.profile.perCommand)
      .sort((a, b) => b[1].microsPerNotification - a[1].microsPerNotification)
      .map(([k, v]) => `${k} ${v.callsPerNotification.toFixed(2)} / ${v.microsPerNotification.toFixed(1)}`)
      .join(', ')}`,
    `  Node CPU of the archivers: ${f.profile.nodeCpuMicrosPerNotification.toFixed(1)} µs per notification; PostgreSQL server CPU: ${f.profile.postgresCpuMicrosPerNotification?.toFixed(1) ?? 'n/a'} µs; wall time inside insertBatch: ${f.profile.insertWallMicrosPerNotification.toFixed(1)} µs (summed over archivers)`,
    `  load average (1 min) before / after archiving: ${f.profile.loadAverage.map((l) => l.toFixed(1)).join(' / ')} on ${cpus().length} cores`,
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

/**
 * The bare reference: the archived rows read back in COPY's binary format, the table emptied, and
 * the same bytes copied in again in one statement — what PostgreSQL alone does on this machine now.
 */
async function bareCopyReference(url: string): Promise<{ rows: number; seconds: number; perSecond: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const chunks: Buffer[] = [];
    const out = client.query(copyTo(`COPY (SELECT ${COPY_COLUMNS} FROM history_notifications) TO STDOUT (FORMAT binary)`));
    for await (const chunk of out) chunks.push(chunk as Buffer);
    const payload = Buffer.concat(chunks);
    await client.query('TRUNCATE history_notifications');
    await client.query('CHECKPOINT');
    const t0 = process.hrtime.bigint();
    await pipeline(Readable.from([payload]), client.query(copyFrom(`COPY history_notifications (${COPY_COLUMNS}) FROM STDIN (FORMAT binary)`)));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const rows = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM history_notifications')).rows[0]?.n);
    return { rows, seconds, perSecond: rows / seconds };
  } finally {
    await client.end();
  }
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
  const store = await openHistoryStore({ url, retentionDays: 90, ...(options.insertMethod ? { insertMethod: options.insertMethod } : {}) });
  try {
    const postgresPid = options.postgresDataDir === undefined ? undefined : postmasterPid(options.postgresDataDir);
    const measured = await measureRedisSide(redis, store, {
      count,
      archivers: options.archivers ?? 2,
      batchSize: options.batchSize ?? 1_000,
      log: options.log,
      ...(postgresPid === undefined ? {} : { postgresPid }),
      concurrency: options.concurrency ?? DEFAULT_ARCHIVER_CONFIG.concurrency,
      processes: options.processes ?? 0,
      redisUrl: server.url,
      postgresUrl: url,
      ...(options.insertMethod ? { insertMethod: options.insertMethod } : {}),
    });
    const detail: RedisSideFigures = { ...measured, rowsInHistory: await countRows(url) };
    if (detail.rowsInHistory !== count) throw new Error(`history holds ${detail.rowsInHistory} rows, expected ${count}`);
    if (options.reference ?? true) {
      options.log('bare reference: the same rows, one binary COPY into the emptied table');
      detail.reference = await bareCopyReference(url);
    }
    const { bucketEncodings: _e, profile, reference, ...numbers } = detail;
    const { perCommand: _p, loadAverage, ...profileNumbers } = profile;
    const figures: Record<string, number | string> = {
      ...numbers,
      ...profileNumbers,
      insertMethod: options.insertMethod ?? 'copy',
      loadAverage: loadAverage.map((l) => l.toFixed(1)).join(' / '),
      ...(reference ? { bareCopyRowsPerSecond: reference.perSecond } : {}),
    };
    return { figures, markdown: formatRedisSide(detail), detail };
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
      insert: { type: 'string', default: 'copy' },
      concurrency: { type: 'string', default: String(DEFAULT_ARCHIVER_CONFIG.concurrency) },
      processes: { type: 'string', default: '0' },
      child: { type: 'boolean', default: false },
      'redis-url': { type: 'string' },
      'postgres-url': { type: 'string' },
      'no-reference': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const count = Number(values.count);
  const archivers = Number(values.archivers);
  const batchSize = Number(values.batch);
  if (!Number.isInteger(count) || count < 1 || count > 10_000_000) throw new Error('--count must be an integer in 1..10000000');
  if (!Number.isInteger(archivers) || archivers < 1 || archivers > 16) throw new Error('--archivers must be an integer in 1..16');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 20_000) throw new Error('--batch must be an integer in 1..20000');
  const insertMethod = values.insert as HistoryInsertMethod;
  if (!['copy', 'staging', 'unnest'].includes(insertMethod)) throw new Error('--insert must be copy, staging or unnest');
  const concurrency = Number(values.concurrency);
  const processes = Number(values.processes);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) throw new Error('--concurrency must be an integer in 1..16');
  if (!Number.isInteger(processes) || processes < 0 || processes > 16) throw new Error('--processes must be an integer in 0..16');
  if (values.child) {
    if (!values['redis-url'] || !values['postgres-url']) throw new Error('--child needs --redis-url and --postgres-url');
    await runArchiverChild({ redisUrl: values['redis-url'], postgresUrl: values['postgres-url'], archivers, batchSize, concurrency, insertMethod });
    return;
  }
  const log = (line: string) => process.stderr.write(`[bench:history redis-side] ${line}\n`);
  await ensurePostgresBinaries({ env: process.env, log });
  const postgres = await startPrivatePostgres();
  try {
    const result = await runRedisSide({
      postgresUrl: postgres.url,
      postgresDataDir: postgres.dataDir,
      log,
      count,
      archivers,
      batchSize,
      insertMethod,
      reference: !values['no-reference'],
      concurrency,
      processes,
    });
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
