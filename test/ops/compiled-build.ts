import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { DEFAULT_ENTRIES, ProcessGroup, startAppOnFreePorts, startPrivateRedis, type ManagedProcess, type PrivateRedis } from '@notify/platform-kit';
import { buildOnce } from '../harness/production-build';

/** The compiled apps as production runs them (the run's one build), and what a compiled process loaded. */
const ROOT = resolve(__dirname, '../..');

/** `node --require` this into a compiled app, with RECORD_LOADED_MODULES naming a file: it writes the modules loaded, at exit. */
export const RECORD_LOADED_MODULES_PRELOAD = resolve(__dirname, 'fixtures/record-loaded-modules.cjs');

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
