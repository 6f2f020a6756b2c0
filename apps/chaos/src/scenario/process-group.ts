import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';

export interface Child {
  name: string;
  process: ChildProcess;
  /** Resolves when it exits (code or signal). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its stdout + stderr, in the run's log directory. */
  logFile: string;
}

/**
 * Every process the scenario starts, so every one is stopped at the end, on failure and on
 * SIGINT: `stopAll` sends SIGTERM, waits `graceMs`, then SIGKILLs the rest; `killAllNow` is the
 * synchronous last resort for process 'exit'.
 */
export class ProcessGroup {
  private readonly children: Child[] = [];
  private readonly logs: WriteStream[] = [];
  /** Set when a child exits that nobody stopped (a crash): the run fails with its name. */
  unexpectedExit: string | undefined;
  private stopping = false;

  constructor(private readonly logDir: string, private readonly maxChildren = 16) {}

  start(name: string, command: string, args: string[], env: Record<string, string>, cwd: string): Child {
    if (this.stopping) throw new Error('the scenario is stopping; not starting more processes');
    if (this.children.length >= this.maxChildren) throw new Error(`refusing to start more than ${this.maxChildren} processes`);
    const logFile = join(this.logDir, `${name}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    this.logs.push(log);
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.on('error', (error) => { log.write(`spawn error: ${error.message}\n`); });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => {
        if (!this.stopping && this.unexpectedExit === undefined) this.unexpectedExit = `${name} exited (${signal ?? code}); see ${logFile}`;
        resolve({ code, signal });
      });
      child.once('error', () => resolve({ code: -1, signal: null }));
    });
    const entry = { name, process: child, exited, logFile };
    this.children.push(entry);
    return entry;
  }

  /** Stops the given children (e.g. the workers before the api), or all, newest first. */
  async stop(children: readonly Child[] = this.children, graceMs = 5_000): Promise<void> {
    this.stopping = true;
    const running = [...children].reverse().filter((c) => c.process.exitCode === null && c.process.signalCode === null);
    for (const c of running) c.process.kill('SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
    await Promise.race([Promise.all(running.map((c) => c.exited)), timer]);
    for (const c of running) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
    await Promise.all(running.map((c) => c.exited));
  }

  async stopAll(graceMs = 5_000): Promise<void> {
    await this.stop(this.children, graceMs);
    for (const log of this.logs) log.end();
  }

  /** Synchronous: for process.on('exit'), when nothing async can run any more. */
  killAllNow(): void {
    for (const c of this.children) {
      if (c.process.exitCode === null && c.process.signalCode === null) {
        try { c.process.kill('SIGKILL'); } catch { /* already gone */ }
      }
    }
  }

  /** Processes started, and how many of them still run. */
  get count(): number {
    return this.children.length;
  }

  get running(): number {
    return this.children.filter((c) => c.process.exitCode === null && c.process.signalCode === null).length;
  }
}
