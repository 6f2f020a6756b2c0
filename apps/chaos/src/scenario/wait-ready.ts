import type { Child, ProcessGroup } from './process-group';

/** Polls `probe` until it is true, the child exits, the signal aborts or `timeoutMs` passes. */
export async function waitReady(what: string, probe: () => Promise<boolean>, options: { timeoutMs: number; group: ProcessGroup; child?: Child; signal?: AbortSignal }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (options.signal?.aborted) throw new Error(`interrupted while waiting for ${what}`);
    if (options.child && (options.child.process.exitCode !== null || options.child.process.signalCode !== null)) {
      throw new Error(`${what} exited before it was ready; see ${options.child.logFile}`);
    }
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} not ready after ${options.timeoutMs} ms${options.child ? `; see ${options.child.logFile}` : ''}`);
}

/** GET url answers 2xx. */
export async function httpOk(url: string): Promise<boolean> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 1_000);
  try {
    const res = await fetch(url, { signal: abort.signal });
    await res.arrayBuffer();
    return res.ok;
  } finally {
    clearTimeout(timer);
  }
}
