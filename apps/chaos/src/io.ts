/** Everything the CLI touches outside itself, injected so tests can drive it. */
export interface ChaosIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  /** This machine's name: kill-worker only signals processes registered from here. */
  hostname?: string;
  /** process.kill, replaceable in tests. */
  kill?: (pid: number, signal: NodeJS.Signals | 0) => void;
}
