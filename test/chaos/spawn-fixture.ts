import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface Spawned {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (afterAll). */
  stop(): Promise<void>;
}

/** Runs a TypeScript file as its own node process (node --import tsx), resolving once it prints `ready`. */
export async function spawnTs(file: string, env: Record<string, string>, ready: RegExp, timeoutMs = 15_000): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, file)], {
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} not ready in ${timeoutMs} ms: ${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => { output += String(chunk); });
    void exited.then(({ code }) => { clearTimeout(timer); reject(new Error(`${file} exited (${code}) before ready: ${output}`)); });
  });
  return {
    child, exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
