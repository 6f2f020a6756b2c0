import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface AppProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs one app (`apps/<name>/src/main.ts`) as a real process, as production does, so a test
 * can SIGKILL or SIGTERM it. Output is kept (last 64 KB) for failure messages.
 */
export function spawnApp(app: 'api' | 'worker' | 'simulators', env: Record<string, string>): AppProcess {
  // `node --import tsx` (not the tsx CLI, which runs the app in a child process of its own):
  // the pid we signal must be the app itself, or a SIGKILL would orphan the real worker.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps', app, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-65_536); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    output: () => output,
    exited,
    kill: async (signal: NodeJS.Signals = 'SIGKILL') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}
