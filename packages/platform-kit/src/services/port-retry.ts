/**
 * A port found free (freePort) may be taken by another process before the server started on
 * it binds it. Servers that report the port they bound on port 0 avoid that; the others
 * (redis-server, postgres, the apps given their ports in env) are started again on fresh
 * ports when their bind fails, a bounded number of times.
 */

/** How a bind failure reads in the output of node (`listen EADDRINUSE`), redis-server, postgres and prometheus (`bind: address already in use`). */
export const ADDRESS_IN_USE = /EADDRINUSE|address already in use/i;

/** A start that failed only because a port it was given was taken: a fresh port may succeed. */
export class PortTakenError extends Error {
  override readonly name = 'PortTakenError';
}

export function isPortTaken(error: unknown): error is PortTakenError {
  return error instanceof PortTakenError;
}

/** Attempts by default: each one needs another process to win a race on a port chosen a moment before. */
export const PORT_ATTEMPTS = 5;

/**
 * Runs `start` (which chooses its ports afresh on each call) until it does not throw a
 * PortTakenError, at most `attempts` times; the last error is rethrown naming the attempts.
 */
export async function retryOnPortTaken<T>(what: string, start: (attempt: number) => Promise<T>, attempts = PORT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(attempt);
    } catch (error) {
      if (!isPortTaken(error)) throw error;
      if (attempt >= attempts) throw new PortTakenError(`${what}: a port was taken on each of ${attempts} attempts (${error.message})`);
    }
  }
}
