/**
 * The development supervisor behind `npm start`: ensures Redis, then runs the simulators, the
 * api and the workers as child processes (each `node --import tsx apps/<app>/src/main.ts`),
 * restarts a worker that dies (so `npm run chaos -- kill-worker` shows recovery), and stops
 * everything on Ctrl-C / SIGTERM. Configuration comes from the environment, as in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { z } from 'zod';

const ROOT = join(__dirname, '..');

const env = z.object({
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  API_HOST: z.string().default('127.0.0.1'),
  API_PORT: z.string().default('3000'),
  METRICS_PORT: z.string().default('9464'),
  WORKER_COUNT: z.coerce.number().int().min(1).max(16).default(1),
  API_KEYS: z.string().default('dev-key-change-me-0001:dev'),
}).parse(process.env);

const log = (line: string) => process.stdout.write(`[start] ${line}\n`);

async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1_000, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

async function ensureRedis(): Promise<ChildProcess | undefined> {
  if (await redisAnswers(env.REDIS_URL)) {
    log(`Redis answers at ${env.REDIS_URL}`);
    return undefined;
  }
  const url = new URL(env.REDIS_URL);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname)) {
    throw new Error(`no Redis answers at ${env.REDIS_URL}, and it is not local: start it, or point REDIS_URL elsewhere`);
  }
  const dir = join(ROOT, '.data', 'redis');
  mkdirSync(dir, { recursive: true });
  log(`no Redis at ${env.REDIS_URL}: starting redis-server (AOF on, noeviction, data in .data/redis)`);
  const child = spawn('redis-server', [
    '--port', url.port || '6379', '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--maxmemory-policy', 'noeviction',
  ], { stdio: 'ignore' });
  child.on('error', (error) => {
    process.stderr.write(`[start] could not run redis-server (${error.message}); install it (apt-get install redis-server) or set REDIS_URL\n`);
    process.exit(1);
  });
  for (let i = 0; i < 50; i += 1) {
    if (await redisAnswers(env.REDIS_URL)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('redis-server did not answer within 5 s');
}

const children = new Set<ChildProcess>();
let redisChild: ChildProcess | undefined;
let stopping = false;

function run(app: string, extraEnv: Record<string, string>, restart: boolean): void {
  // Production (`npm run start:prod`) runs the compiled apps with plain node; development, tsx.
  const entry = process.env.NODE_ENV === 'production'
    ? ['--enable-source-maps', join(ROOT, 'apps', app, 'dist', 'main.js')]
    : ['--import', 'tsx', join(ROOT, 'apps', app, 'src', 'main.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio: 'inherit',
  });
  children.add(child);
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (stopping) return;
    log(`${app} exited (${signal ?? code})${restart ? ': restarting in 1 s' : ''}`);
    if (restart) setTimeout(() => run(app, extraEnv, restart), 1_000);
    else void stop(1);
  });
}

async function stopAll(set: Set<ChildProcess>, graceMs: number): Promise<void> {
  for (const child of set) child.kill('SIGTERM');
  const deadline = Date.now() + graceMs;
  while ([...set].some((c) => c.exitCode === null && c.signalCode === null) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const child of set) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Apps first (they drain through Redis), then the Redis this script started, if any. */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping');
  await stopAll(children, 20_000);
  if (redisChild) await stopAll(new Set([redisChild]), 5_000);
  process.exit(code);
}

async function main(): Promise<void> {
  redisChild = await ensureRedis();
  const shared = { REDIS_URL: env.REDIS_URL, API_KEYS: env.API_KEYS };
  run('simulators', shared, true);
  run('api', { ...shared, API_HOST: env.API_HOST, API_PORT: env.API_PORT }, false);
  for (let i = 0; i < env.WORKER_COUNT; i += 1) {
    run('worker', { ...shared, METRICS_PORT: String(Number(env.METRICS_PORT) + i) }, true);
  }
  const api = `http://${env.API_HOST}:${env.API_PORT}`;
  log(`POST notifications to ${api}/v1/notifications (Authorization: Bearer ${env.API_KEYS.split(':')[0]})`);
  log(`metrics: ${api}/metrics (api), http://127.0.0.1:${env.METRICS_PORT}/metrics (worker); simulators control: http://127.0.0.1:4100/control/channels`);
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
