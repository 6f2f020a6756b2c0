/**
 * `npm run bench:history`: the history store over >= 1 M synthetic terminal notifications on a
 * private PostgreSQL (fsync off: the figures are the schema's and the queries', not the disk's):
 * bytes per notification (table + indexes over every partition), insertBatch throughput, and
 * list-query p50/p99 with each plan. Then, when bench/history/redis-side.ts exists (the
 * archiver side), its figures: archival throughput through Redis and Redis bytes per terminal
 * notification. Options: see USAGE.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openHistoryStore } from '@notify/history';
import { ensurePostgresBinaries, startPrivatePostgres } from '@notify/platform-kit';
import { runPostgresSide, type PostgresFigures } from './history/postgres-side';

const USAGE = `usage: npm run bench:history -- [--rows 1000000] [--days 3] [--tenants 20] [--batch 1000]
  [--queries 300] [--max-insert-seconds 900] [--redis-side auto|skip] [--json]`;

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '3' },
    tenants: { type: 'string', default: '20' },
    batch: { type: 'string', default: '1000' },
    queries: { type: 'string', default: '300' },
    'max-insert-seconds': { type: 'string', default: '900' },
    'redis-side': { type: 'string', default: 'auto' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

function int(name: keyof typeof values, min: number, max: number): number {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`--${name} must be an integer in ${min}..${max}\n${USAGE}`);
  return v;
}

/**
 * The hook for the archiver side: bench/history/redis-side.ts exports
 * `runRedisSide(options)`; this main calls it after the PostgreSQL figures and prints what it
 * returns. Absent (or --redis-side skip): the PostgreSQL figures alone.
 */
export interface RedisSideOptions {
  postgresUrl: string;
  /** The server's data directory: the bench measures its processes' CPU. */
  postgresDataDir?: string;
  log: (line: string) => void;
}
export interface RedisSideResult {
  figures: Record<string, number | string>;
  markdown?: string;
}
interface RedisSideModule {
  runRedisSide(options: RedisSideOptions): Promise<RedisSideResult>;
}

const f0 = (n: number) => Math.round(n).toLocaleString('en');
const f1 = (n: number) => n.toFixed(1);

function report(p: PostgresFigures): string {
  const lines = [
    `PostgreSQL history: ${f0(p.rows)} notifications (${Object.entries(p.statusMix)
      .map(([k, v]) => `${k} ${((100 * v) / p.rows).toFixed(2)}%`)
      .join(', ')})`,
    `  insertBatch: ${f0(p.insertPerSecond)} records/s (${f1(p.insertSeconds)} s inserting)`,
    `  bytes per notification (table + indexes, all partitions): ${f1(p.bytes.perNotification)} B   [target <= 300]`,
    `    heap ${f1(p.bytes.heap / p.rows)} B, toast/fsm/vm ${f1(p.bytes.toast / p.rows)} B`,
    ...Object.entries(p.bytes.indexes).map(([k, v]) => `    index ${k}: ${f1(v / p.rows)} B`),
    '  alternatives (indexes built fresh on the largest partition; detail on a 20,000-record sample):',
    ...p.alternatives.map((a) => `    ${a.name}: ${f1(a.bytesPerRow)} B/row  vs  ${a.versus}: ${f1(a.versusBytesPerRow)} B/row`),
    '  list queries (limit 50, first page, through HistoryStore.list):',
    ...p.queries.map(
      (q) =>
        `    ${q.name.padEnd(34)} p50 ${q.p50Ms.toFixed(2)} ms  p99 ${q.p99Ms.toFixed(2)} ms  (${q.count} queries, ${q.meanRows.toFixed(1)} rows/page)  [p99 target < 50 ms]`,
    ),
    '',
    ...p.queries.flatMap((q) => [`EXPLAIN ANALYZE — ${q.name} (${q.filter}):`, ...q.plan.split('\n').map((l) => `  ${l}`), '']),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rows = int('rows', 1_000, 20_000_000);
  const options = {
    rows,
    days: int('days', 1, 60),
    tenants: int('tenants', 1, 10_000),
    batch: int('batch', 1, 50_000),
    queries: int('queries', 1, 100_000),
    maxInsertSeconds: int('max-insert-seconds', 1, 7_200),
  };
  const log = (line: string) => process.stderr.write(`[bench:history] ${line}\n`);
  await ensurePostgresBinaries({ env: process.env, log });
  const server = await startPrivatePostgres({ settings: { shared_buffers: '256MB', max_wal_size: '4GB', checkpoint_timeout: '30min' } });
  const stopOnSignal = () => {
    void server.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  try {
    log(`private PostgreSQL on port ${server.port}`);
    const nowMs = Date.now();
    const store = await openHistoryStore({ url: server.url, retentionDays: 90, poolSize: 2, applicationName: 'bench-history' });
    let figures: PostgresFigures;
    try {
      figures = await runPostgresSide({ ...options, url: server.url, store, nowMs, seed: 12, log });
    } finally {
      await store.close();
    }
    const out: { postgres: PostgresFigures; redis?: RedisSideResult } = { postgres: figures };
    // ---- The archiver side: archival throughput end to end through Redis, Redis bytes per terminal notification.
    const redisSide = join(__dirname, 'history', 'redis-side.ts');
    if (values['redis-side'] !== 'skip' && existsSync(redisSide)) {
      log('running bench/history/redis-side.ts (archiver through Redis)');
      const mod = (await import(redisSide)) as RedisSideModule;
      out.redis = await mod.runRedisSide({ postgresUrl: server.url, postgresDataDir: server.dataDir, log });
    } else {
      log('bench/history/redis-side.ts not run: PostgreSQL figures only');
    }
    if (values.json) {
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      process.stdout.write(`${report(figures)}\n`);
      if (out.redis) {
        process.stdout.write(
          `Redis side (archiver):\n${Object.entries(out.redis.figures)
            .map(([k, v]) => `  ${k}: ${typeof v === 'number' ? v.toLocaleString('en') : v}`)
            .join('\n')}\n`,
        );
        if (out.redis.markdown) process.stdout.write(`${out.redis.markdown}\n`);
      }
    }
  } finally {
    process.off('SIGINT', stopOnSignal);
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench:history] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
