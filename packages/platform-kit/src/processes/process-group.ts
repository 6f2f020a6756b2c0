import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { GiveUp, httpOk, waitFor } from '../services/wait-for';
import { noteExited, noteStarted } from './child-ledger';
import type { Exit, ManagedProcess } from './managed-process';

export interface SpawnSpec {
  name: string;
  command: string;
  args: readonly string[];
  /** The child's whole environment: nothing of ours leaks in unless passed here. */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Pass stdout/stderr through to ours (npm start) instead of capturing them. */
  inheritOutput?: boolean;
}

const OUTPUT_KEEP = 65_536;

/** Groups alive in this process: the 'exit' hook SIGKILLs whatever they still run. */
const LIVE = new Set<ProcessGroup>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of LIVE) group.killAllNow();
  });
}

/**
 * Every process a tool starts, so that every one is stopped: `stopAll()` at the end, on
 * failure and on SIGINT (SIGTERM, a grace period, then SIGKILL), and `killAllNow()` from
 * process 'exit' (installed once, so a test runner or CLI that exits early leaves no orphan).
 * Each child leads its own process group, and kills go to the group: a child's own children
 * (a tsx CLI's node, a shell's command) die with it.
 */
export class ProcessGroup {
  private readonly children: ManagedProcess[] = [];
  /** How to SIGKILL each child's process group synchronously (for killAllNow). */
  private readonly killers = new Map<ManagedProcess, (signal: NodeJS.Signals) => void>();
  private readonly logs: WriteStream[] = [];
  /** Set when a child exits that nobody stopped (a crash): a run can fail naming it. */
  unexpectedExit: string | undefined;
  /** The child whose exit set `unexpectedExit` (forget() clears it for a start that is retried). */
  private unexpectedExitOf: ChildProcess | undefined;
  private stopping = false;

  /** `logDir`: keep each child's output in `<logDir>/<name>.log` as well. */
  constructor(private readonly options: { logDir?: string; maxChildren?: number } = {}) {
    LIVE.add(this);
    installExitHook();
  }

  start(spec: SpawnSpec): ManagedProcess {
    if (this.stopping) throw new Error('the process group is stopping; not starting more processes');
    const max = this.options.maxChildren ?? 64;
    if (this.children.length >= max) throw new Error(`refusing to start more than ${max} processes`);
    const logFile = this.options.logDir ? join(this.options.logDir, `${spec.name}.log`) : undefined;
    const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
    if (log) this.logs.push(log);
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: spec.inheritOutput ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    });
    noteStarted(child.pid);
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_KEEP);
      log?.write(chunk);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let done = false;
    const exited = new Promise<Exit>((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (done) return;
        done = true;
        noteExited(child.pid);
        if (!this.stopping && this.unexpectedExit === undefined) {
          this.unexpectedExit = `${spec.name} exited (${signal ?? code})${logFile ? `; see ${logFile}` : ''}`;
          this.unexpectedExitOf = child;
        }
        resolve({ code, signal, at: performance.now() });
      };
      child.once('exit', finish);
      child.once('error', (error) => {
        keep(Buffer.from(`spawn error: ${error.message}\n`));
        finish(null, null);
      });
    });
    const killGroup = (signal: NodeJS.Signals) => {
      if (done || child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        try {
          child.kill(signal);
        } catch {
          /* already gone */
        }
      }
    };
    const waitReady: ManagedProcess['waitReady'] = async (what, probe, options = {}) => {
      await waitFor(
        what,
        async () => {
          if (done) throw new GiveUp(`${spec.name} exited before it was ready`);
          return probe().catch(() => false);
        },
        options.timeoutMs ?? 60_000,
        50,
        options.signal,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n--- ${spec.name} output${logFile ? ` (${logFile})` : ''} ---\n${output.slice(-4_000)}`);
      });
    };
    const managed: ManagedProcess = {
      name: spec.name,
      process: child,
      exited,
      output: () => output,
      logFile,
      get running() {
        return !done;
      },
      signal: (signal) => {
        if (!done) child.kill(signal);
      },
      kill: async () => {
        killGroup('SIGKILL');
        await exited;
      },
      waitReady,
      waitHealthy: (url, options) => waitReady(`${spec.name} healthy at ${url}`, () => httpOk(url), options),
    };
    this.killers.set(managed, killGroup);
    this.children.push(managed);
    return managed;
  }

  /**
   * Drops a child that exited before it was ready because its port was taken: the start is
   * retried on another port, and neither `count` nor `unexpectedExit` should show the attempt.
   */
  forget(child: ManagedProcess): void {
    if (child.running) throw new Error(`${child.name} still runs: stop it before forgetting it`);
    const at = this.children.indexOf(child);
    if (at >= 0) this.children.splice(at, 1);
    this.killers.delete(child);
    if (this.unexpectedExitOf === child.process) {
      this.unexpectedExit = undefined;
      this.unexpectedExitOf = undefined;
    }
  }

  /** Stops the given children (e.g. the workers before the api), or all, newest first: SIGTERM, `graceMs`, SIGKILL. */
  async stop(children: readonly ManagedProcess[] = this.children, graceMs = 5_000): Promise<void> {
    this.stopping = true;
    const running = [...children].reverse().filter((c) => c.running);
    for (const c of running) c.signal('SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
    await Promise.race([Promise.all(running.map((c) => c.exited)), timer]);
    await Promise.all(running.map((c) => c.kill()));
  }

  /** Stops everything this group started and closes its logs; the group is done. */
  async stopAll(graceMs = 5_000): Promise<void> {
    await this.stop(this.children, graceMs);
    for (const log of this.logs) log.end();
    LIVE.delete(this);
  }

  /** Synchronous last resort, for process 'exit' when nothing async runs any more. */
  killAllNow(): void {
    for (const killGroup of this.killers.values()) killGroup('SIGKILL');
  }

  /** Processes started, and how many still run. */
  get count(): number {
    return this.children.length;
  }

  get running(): number {
    return this.children.filter((c) => c.running).length;
  }
}
