import type { ChildProcess } from 'node:child_process';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the process exited. */
  at: number;
}

/** One process started by a ProcessGroup. */
export interface ManagedProcess {
  readonly name: string;
  readonly process: ChildProcess;
  /** Resolves once it has exited (code or signal); never rejects. */
  readonly exited: Promise<Exit>;
  /** The last 64 KB of its stdout + stderr (for failure messages and log assertions). */
  output(): string;
  /** Its log file, when the group keeps logs on disk. */
  readonly logFile: string | undefined;
  readonly running: boolean;
  /** Sends `signal` to the process itself (an app's graceful stop is its own SIGTERM handler). */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILLs its whole process group and waits for the exit; safe to call twice. */
  kill(): Promise<void>;
  /**
   * Polls `probe` until true; throws early when the process exits (with its output), or after
   * `timeoutMs`, or when `signal` aborts.
   */
  waitReady(what: string, probe: () => Promise<boolean>, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<void>;
  /** waitReady on GET `url` answering 2xx. */
  waitHealthy(url: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<void>;
}
