/**
 * The development supervisor behind `npm start`: makes sure a Redis answers at REDIS_URL
 * (starting a local redis-server when none does, installing it first where apt and the rights
 * allow) — or, with REDIS_CLUSTER_NODES, that the Redis Cluster there is up (it starts no
 * redis-server then: a cluster is the operator's, docs/cluster.md) — and, with the history on, a PostgreSQL at DATABASE_URL (likewise: a private one with
 * its data in .data/postgres), then runs the simulators, the api and the workers as child processes in one
 * ProcessGroup, restarts a worker that dies (so `npm run chaos -- kill-worker` shows recovery),
 * and stops everything on Ctrl-C / SIGTERM: the apps first (they drain through Redis), then
 * the Redis it started. Configuration comes from the environment, as in production.
 */
import { join } from 'node:path';
import { z } from 'zod';
import {
  BINARIES,
  clusterInfo,
  DEFAULT_ENTRIES,
  ensureBinaries,
  ensurePostgresBinaries,
  EXIT,
  isMissingBinaryError,
  postgresAnswers,
  ProcessGroup,
  redisAnswers,
  REPO_ROOT,
  startApp,
  startPrivatePostgres,
  startPrivateRedis,
  type AppName,
  type PrivatePostgres,
  type PrivateRedis,
} from '@notify/platform-kit';
import { DEV_DEFAULTS, devOrigin, parseClusterNodes, parseRenamedEnv } from '@notify/runtime';
import { START_RENAMES, startEnvShape } from './start-env';

const envSchema = z.object(startEnvShape);

/** A bad variable is a usage error: one readable message (core's config format), exit 2. */
const env = (() => {
  try {
    const { values, warnings } = parseRenamedEnv('npm start', envSchema, process.env, START_RENAMES);
    for (const warning of warnings) process.stdout.write(`[start] ${warning}\n`);
    return values;
  } catch (error) {
    process.stderr.write(`[start] ${(error as Error).message}\n`);
    process.exit(EXIT.usage);
  }
})();

const log = (line: string) => process.stdout.write(`[start] ${line}\n`);
/** A worker that dies is started again after this long (not at once: a crash loop must not spin). */
const RESTART_AFTER_MS = 1_000;

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/**
 * REDIS_CLUSTER_NODES: every node given must answer CLUSTER INFO with cluster_state:ok (a node
 * down, one without cluster support or a cluster with unserved slots would leave the apps
 * retrying forever); otherwise one line says which node and why.
 */
async function checkCluster(nodes: { host: string; port: number }[]): Promise<void> {
  const problems = await Promise.all(
    nodes.map(async ({ host, port }) => {
      const where = `${host}:${port}`;
      try {
        const state = (await clusterInfo(port, host, 3_000)).cluster_state;
        return state === 'ok' ? undefined : `${where} says cluster_state:${state ?? '(none)'}`;
      } catch (error) {
        return `${where} does not answer CLUSTER INFO (${(error as Error).message.split('\n')[0]})`;
      }
    }),
  );
  const bad = problems.filter((p): p is string => p !== undefined);
  if (bad.length > 0) {
    throw new Error(
      `the Redis Cluster at REDIS_CLUSTER_NODES is not up: ${bad.join('; ')}: start it (docs/cluster.md), or unset REDIS_CLUSTER_NODES to run on one Redis`,
    );
  }
  log(`Redis Cluster answers at ${nodes.map((n) => `${n.host}:${n.port}`).join(',')} (cluster_state:ok; no redis-server started)`);
}

async function ensureRedis(): Promise<PrivateRedis | undefined> {
  const clusterNodes = parseClusterNodes(env.REDIS_CLUSTER_NODES);
  if (clusterNodes) {
    await checkCluster(clusterNodes);
    return undefined;
  }
  if (await redisAnswers(env.REDIS_URL)) {
    log(`Redis answers at ${env.REDIS_URL}`);
    return undefined;
  }
  const url = new URL(env.REDIS_URL);
  if (!LOCAL_HOSTS.includes(url.hostname)) {
    throw new Error(`no Redis answers at ${env.REDIS_URL}, and it is not local: start it, or point REDIS_URL elsewhere`);
  }
  await ensureBinaries([BINARIES.redisServer], { env: process.env, log });
  log(`no Redis at ${env.REDIS_URL}: starting redis-server (AOF on, noeviction, data in .data/redis)`);
  return startPrivateRedis({ port: Number(url.port || '6379'), dataDir: join(REPO_ROOT, '.data', 'redis'), persistence: 'aof' });
}

const historyOn = env.HISTORY_ENABLED ?? true;
/** The url without its password, for a log line. */
const shown = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/**
 * A PostgreSQL at DATABASE_URL: the one that answers there, or a private one started on its
 * port (user `postgres`, trust auth on 127.0.0.1 only, the url's database created on first
 * start, durable: fsync on), with its data kept in .data/postgres across runs.
 */
async function ensurePostgres(): Promise<PrivatePostgres | undefined> {
  if (await postgresAnswers(env.DATABASE_URL)) {
    log(`PostgreSQL answers at ${shown(env.DATABASE_URL)}`);
    return undefined;
  }
  const url = new URL(env.DATABASE_URL);
  if (!LOCAL_HOSTS.includes(url.hostname)) {
    throw new Error(
      `no PostgreSQL answers at ${shown(env.DATABASE_URL)}, and it is not local: start it, point DATABASE_URL elsewhere, or set HISTORY_ENABLED=false`,
    );
  }
  await ensurePostgresBinaries({ env: process.env, log });
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  log(`no PostgreSQL at ${shown(env.DATABASE_URL)}: starting a private one (port ${url.port || '5432'}, database ${database}, data in .data/postgres)`);
  return startPrivatePostgres({ port: Number(url.port || '5432'), dataDir: join(REPO_ROOT, '.data', 'postgres'), database, fast: false });
}

const apps = new ProcessGroup();
let redis: PrivateRedis | undefined;
let postgres: PrivatePostgres | undefined;
/** What start-up is doing (a missing binary's message names the way out for that service). */
let phase: 'redis' | 'postgres' = 'redis';
let stopping = false;

function run(app: AppName, name: string, extraEnv: Record<string, string | undefined>, restart: boolean): void {
  const child = startApp(apps, {
    name,
    entry: DEFAULT_ENTRIES[app],
    env: { ...process.env, ...extraEnv },
    inheritOutput: true,
    compiled: env.NODE_ENV === 'production',
  });
  void child.exited.then(({ code, signal }) => {
    if (stopping) return;
    log(`${name} exited (${signal ?? code})${restart ? `: restarting in ${RESTART_AFTER_MS} ms` : ''}`);
    if (restart)
      setTimeout(() => {
        if (!stopping) run(app, name, extraEnv, restart);
      }, RESTART_AFTER_MS);
    else void stop(EXIT.failed);
  });
}

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping');
  await apps.stopAll(20_000);
  await redis?.stop();
  await postgres?.stop();
  process.exit(code);
}

async function main(): Promise<void> {
  process.once('SIGINT', () => void stop(EXIT.ok));
  process.once('SIGTERM', () => void stop(EXIT.ok));
  redis = await ensureRedis();
  phase = 'postgres';
  if (historyOn) postgres = await ensurePostgres();
  const shared = { REDIS_URL: env.REDIS_URL, DATABASE_URL: env.DATABASE_URL, HISTORY_ENABLED: String(historyOn) };
  run('simulators', 'simulators', shared, true);
  run('api', 'api', { ...shared, API_HOST: env.API_HOST, API_PORT: String(env.API_PORT), API_METRICS_PORT: String(env.API_METRICS_PORT) }, false);
  for (let i = 0; i < env.WORKER_COUNT; i += 1) {
    // Worker i listens on WORKER_METRICS_PORT + i; the api's metrics default (9463) sits below that range.
    const port = String(env.WORKER_METRICS_PORT + i);
    // A former METRICS_PORT was read (and warned about) here: the workers get the new name only.
    run('worker', `worker-${i + 1}`, { ...shared, WORKER_METRICS_PORT: port, METRICS_PORT: undefined }, true);
  }
  const api = `http://${env.API_HOST}:${env.API_PORT}`;
  // Only the public development key is ever printed: a real key never reaches a terminal or a log.
  const devKey = env.API_KEYS === undefined || env.API_KEYS[0]?.key === DEV_DEFAULTS.apiKey ? DEV_DEFAULTS.apiKey : '<your API key>';
  log(`POST notifications to ${api}/v1/notifications (Authorization: Bearer ${devKey})`);
  log(
    `metrics: http://127.0.0.1:${env.API_METRICS_PORT}/metrics (api), http://127.0.0.1:${env.WORKER_METRICS_PORT}/metrics (worker); simulators control: ${devOrigin(DEV_DEFAULTS.simControlPort)}/control/channels`,
  );
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // The missing service's variable is the way out (and for PostgreSQL, running without the history).
  const escape = phase === 'redis' ? 'or set REDIS_URL to a Redis that runs' : 'or set DATABASE_URL to a PostgreSQL that runs, or HISTORY_ENABLED=false';
  process.stderr.write(`[start] ${isMissingBinaryError(error) ? `${message}, ${escape}` : message}\n`);
  void stop(EXIT.failed);
});
