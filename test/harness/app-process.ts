import { LIGHT_WARMUP_ENV } from './light-warm-up';
import { DEFAULT_ENTRIES, ProcessGroup, startApp, startAppOnFreePorts, type AppName, type ManagedProcess } from '@notify/platform-kit';

export type AppProcess = ManagedProcess;

/** One group per test file (Jest loads this module per file): every app it spawned dies with it. */
const group = new ProcessGroup();

const baseEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', LOG_LEVEL: 'info', ...LIGHT_WARMUP_ENV, ...env });

/**
 * Runs one app as a real process, as production does (plain `node` on the run's production
 * build, see production-build.ts), so a test can SIGTERM or SIGKILL it. Its environment is PATH and `env` only, logging at info (tests read
 * its log lines); its output is kept for failure messages.
 */
export function spawnApp(app: AppName, env: Record<string, string>): AppProcess {
  return startApp(group, { name: app, entry: DEFAULT_ENTRIES[app], env: baseEnv(env), compiled: true });
}

/**
 * spawnApp on `count` free ports, waiting until `readyUrl` answers: when a port is taken
 * between being found free and the app binding it, the app is started again on fresh ports.
 * What a test that needs an app's port should use instead of freePort() + spawnApp.
 */
export async function spawnAppOnFreePorts(
  app: AppName,
  count: number,
  env: (ports: readonly number[]) => Record<string, string>,
  readyUrl: (ports: readonly number[]) => string,
  options: { timeoutMs?: number } = {},
): Promise<{ proc: AppProcess; ports: number[] }> {
  const started = await startAppOnFreePorts(group, {
    name: app,
    entry: DEFAULT_ENTRIES[app],
    compiled: true,
    ports: count,
    env: (p) => baseEnv(env(p)),
    readyUrl,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { proc: started.process, ports: started.ports };
}

/** What makes a worker one a test SIGKILLs: short locks and stalled checks, so another worker takes its jobs within ~3 s. */
export const KILLABLE_WORKER_ENV = { WORKER_LOCK_DURATION_MS: '2000', WORKER_STALLED_INTERVAL_MS: '1000', PROVIDER_TIMEOUT_MS: '5000' };

/** A worker a test SIGKILLs (KILLABLE_WORKER_ENV). */
export function spawnKillableWorker(env: Record<string, string>): AppProcess {
  return spawnApp('worker', { ...env, ...KILLABLE_WORKER_ENV });
}

/** Killable workers a test starts one after another (one to SIGKILL, one to take over); `killAll` in afterAll. */
export function killableWorkers(env: () => Record<string, string>): { start: () => AppProcess; killAll: () => Promise<void> } {
  const started: AppProcess[] = [];
  return {
    start: () => {
      const worker = spawnKillableWorker(env());
      started.push(worker);
      return worker;
    },
    killAll: async () => {
      for (const worker of started) await worker.kill();
    },
  };
}
