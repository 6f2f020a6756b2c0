import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  DEFAULT_ENTRIES,
  ProcessGroup,
  processAlive,
  startAppOnFreePorts,
  startPrivateRedis,
  waitFor,
  type ManagedProcess,
  type PrivateRedis,
} from '@notify/platform-kit';

/**
 * The production build as the tests that run compiled code see it: `npm run build` once for
 * the sources as they are, shared by every test file of a run (and by parallel jest workers),
 * and what a compiled process loaded.
 */
const ROOT = resolve(__dirname, '../..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'notify-build');
const STAMP = join(CACHE, 'sources.sha256');
const LOCK = join(CACHE, 'lock');
const run = promisify(execFile);

/** `node --require` this into a compiled app, with RECORD_LOADED_MODULES naming a file: it writes the modules loaded, at exit. */
export const RECORD_LOADED_MODULES_PRELOAD = resolve(__dirname, 'fixtures/record-loaded-modules.cjs');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const workspaces = () =>
  ['apps', 'packages']
    .flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name)))
    .filter((dir) => existsSync(join(dir, 'package.json')));

/** A hash of everything the build reads: every workspace's sources and package.json, the build script, the tsconfig. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const files = [join(ROOT, 'scripts', 'build.ts'), join(ROOT, 'tsconfig.json'), ...workspaces().flatMap((dir) => filesUnder(dir))].sort();
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** Whether dist/ holds the build of these sources: the stamp names them and no workspace's dist/ was removed since. */
function stamped(hash: string): boolean {
  try {
    if (readFileSync(STAMP, 'utf8') !== hash) return false;
  } catch {
    return false;
  }
  return workspaces().every((dir) => !existsSync(join(dir, 'src')) || existsSync(join(dir, 'dist')));
}

/** Takes the build lock (a directory: made atomically), or answers false while a live process holds it. */
function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
  } catch {
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
    } catch {
      return false; // taken a moment ago, its pid not written yet
    }
    if (processAlive(holder)) return false;
    rmSync(LOCK, { recursive: true, force: true }); // its holder died mid-build
    return takeLock();
  }
  writeFileSync(join(LOCK, 'pid'), String(process.pid));
  return true;
}

/**
 * `npm run build` unless the dist/ directories are already compiled from exactly these sources
 * (the stamp is written after a build that succeeded): one build per run, however many test files
 * need it. A build running in another jest worker is waited for, not repeated.
 */
export async function buildOnce(): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const hash = sourcesHash();
  await waitFor('the production build', () => (stamped(hash) || takeLock() ? true : undefined), 180_000, 100);
  if (stamped(hash)) return;
  try {
    rmSync(STAMP, { force: true });
    await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, timeout: 120_000 });
    writeFileSync(STAMP, hash);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The env a compiled api needs beside REDIS_URL: where it listens, its keys. */
export function compiledApiEnv(port: number): Record<string, string> {
  return {
    API_HOST: '127.0.0.1',
    API_PORT: String(port),
    API_METRICS_PORT: '0',
    API_KEYS: 'build-test-tenant-key-0123456789abcdef:acme',
    ADMIN_API_KEY: 'build-test-admin-key-0123456789abcdef',
  };
}

export interface CompiledApp {
  proc: ManagedProcess;
  /** The port it listens on (the api's public one, the worker's metrics). */
  port: number;
  /** Stops the app with SIGTERM, expects a clean exit, and answers every module it loaded (relative to the repository). */
  stopAndListModules(): Promise<string[]>;
}

/**
 * The set-up of a test file that runs compiled apps, registered as its beforeAll / afterAll: the
 * build (once per run), a private Redis, a temp dir for the module records, a process group.
 * `start` runs `node apps/<app>/dist/main.js` (production profile, logging at warn) against that
 * Redis with the preload recording its modules, on a free port given to `env` (started again on
 * a fresh one when another process takes it first); it resolves once /readyz answers there.
 */
export function useCompiledApps(): { start(app: 'api' | 'worker', env: (port: number) => Record<string, string>): Promise<CompiledApp> } {
  const group = new ProcessGroup();
  let redis: PrivateRedis | undefined;
  let tmp = '';
  let started = 0;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'notify-compiled-'));
    await buildOnce();
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    await group.stopAll();
    await redis?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  const start = async (app: 'api' | 'worker', env: (port: number) => Record<string, string>): Promise<CompiledApp> => {
    started += 1;
    const record = join(tmp, `${app}-${started}-modules.json`);
    const { process: proc, ports } = await startAppOnFreePorts(group, {
      name: `${app}-dist`,
      entry: DEFAULT_ENTRIES[app],
      compiled: true,
      preload: RECORD_LOADED_MODULES_PRELOAD,
      ports: 1,
      env: ([port]) => ({
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        NODE_ENV: 'production',
        REDIS_URL: redis!.url,
        LOG_LEVEL: 'warn',
        RECORD_LOADED_MODULES: record,
        ...env(port!),
      }),
      readyUrl: ([port]) => `http://127.0.0.1:${port}/readyz`,
    });
    return {
      proc,
      port: ports[0]!,
      stopAndListModules: async () => {
        proc.signal('SIGTERM');
        const exit = await proc.exited;
        expect({ code: exit.code, output: exit.code === 0 ? '' : proc.output() }).toEqual({ code: 0, output: '' });
        return (JSON.parse(readFileSync(record, 'utf8')) as string[]).map((file) => relative(ROOT, file));
      },
    };
  };
  return { start };
}
