import type { ChildProcess } from 'node:child_process';
import { GiveUp, ProcessGroup, startApp, waitFor } from '@notify/platform-kit';

export interface Spawned {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (afterAll). */
  stop(): Promise<void>;
}

/** One group per test file: whatever a test leaves running dies with it. */
const group = new ProcessGroup();

/** Runs a TypeScript file of the repository as its own node process, resolving once its output matches `ready`. */
export async function spawnTs(file: string, env: Record<string, string>, ready: RegExp, timeoutMs = 15_000): Promise<Spawned> {
  const proc = startApp(group, { name: file, entry: file, env: { PATH: process.env.PATH ?? '', ...env } });
  await waitFor(
    `${file} to print ${ready}`,
    () => {
      if (!proc.running) throw new GiveUp(`${file} exited before ready: ${proc.output()}`);
      return ready.test(proc.output());
    },
    timeoutMs,
  );
  return {
    child: proc.process,
    exited: proc.exited.then(({ code, signal }) => ({ code, signal })),
    stop: () => proc.kill(),
  };
}
