import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { waitFor } from '../harness/wait-for';

const ROOT = resolve(__dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the process exited. */
  at: number;
}

/** One app (`apps/<name>/src/main.ts`) run as a real process, the way production runs it. */
export interface AppProcess {
  readonly child: ChildProcess;
  /** stdout + stderr so far (for failure messages and log assertions). */
  output(): string;
  readonly exited: Promise<Exit>;
  /** Waits until GET `url` answers 200, or the process exits (then throws with its output). */
  waitHealthy(url: string, timeoutMs?: number): Promise<void>;
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL if still running; safe to call twice (afterAll). */
  kill(): Promise<void>;
}

/**
 * tsx runs the app in a child node process and relays SIGTERM/SIGINT to it, passing its exit
 * code back. Signals therefore go to tsx's pid only (the group would get SIGTERM twice); the
 * app gets its own process group so `kill()` can SIGKILL tsx and the app together.
 */
export function startApp(app: 'api' | 'worker' | 'simulators', env: Record<string, string>): AppProcess {
  // Only what the app needs: PATH for tsx's node, and the test's own settings.
  const child = spawn(TSX, [`apps/${app}/src/main.ts`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<Exit>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal, at: performance.now() }));
    child.once('error', (error) => {
      output += `spawn error: ${error.message}\n`;
      resolveExit({ code: null, signal: null, at: performance.now() });
    });
  });
  let done = false;
  void exited.then(() => { done = true; });

  return {
    child,
    output: () => output,
    exited,
    waitHealthy: async (url, timeoutMs = 30_000) => {
      await waitFor(`${app} healthy at ${url}`, async () => {
        if (done) throw new Error(`${app} exited early:\n${output}`);
        const res = await fetch(url).catch(() => undefined);
        return res?.status === 200;
      }, timeoutMs, 100).catch((error: Error) => { throw new Error(`${error.message}\n--- ${app} output ---\n${output}`); });
    },
    signal: (signal) => { child.kill(signal); },
    kill: async () => {
      if (done || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
}
