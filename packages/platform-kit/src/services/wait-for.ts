/** Thrown by a probe to stop waiting at once (the process it waits on has exited): waitFor rethrows it. */
export class GiveUp extends Error {
  override readonly name = 'GiveUp';
}

/**
 * Polls `probe` until it returns a truthy value, or throws after `timeoutMs` naming `what`
 * (with the probe's last error). The one way this kit and the tests wait: on a condition,
 * never a fixed sleep, so a busy machine only makes waits longer, not wrong.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 10_000,
  intervalMs = 25,
  signal?: AbortSignal,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new Error(`interrupted while waiting for ${what}`);
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const suffix = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${suffix}`);
}

/** GET `url` answers 2xx within a second (health and readiness probes). */
export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
  await res.arrayBuffer();
  return res.ok;
}
