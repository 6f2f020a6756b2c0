import { DEFAULT_ENTRIES, ProcessGroup, startApp, type AppName, type ManagedProcess } from '@notify/platform-kit';

export type AppProcess = ManagedProcess;

/** One group per test file (Jest loads this module per file): every app it spawned dies with it. */
const group = new ProcessGroup();

/**
 * Runs one app as a real process, as production does (`node --import tsx`), so a test can
 * SIGTERM or SIGKILL it. Its environment is PATH and `env` only, logging at info (tests read
 * its log lines); its output is kept for failure messages.
 */
export function spawnApp(app: AppName, env: Record<string, string>): AppProcess {
  return startApp(group, { name: app, entry: DEFAULT_ENTRIES[app], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOG_LEVEL: 'info', ...env } });
}

/** A worker a test SIGKILLs: short locks and stalled checks, so another worker takes its jobs within ~3 s. */
export function spawnKillableWorker(env: Record<string, string>): AppProcess {
  return spawnApp('worker', { ...env, WORKER_LOCK_DURATION_MS: '2000', WORKER_STALLED_INTERVAL_MS: '1000', PROVIDER_TIMEOUT_MS: '5000' });
}
