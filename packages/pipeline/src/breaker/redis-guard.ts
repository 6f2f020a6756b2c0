import type { Counter } from 'prom-client';
import type { createFailOpenLog } from './fail-open-log';

/** What a guarded breaker command answers when Redis did not: the gate then fails open. */
export const FAILED = Symbol('breaker-redis-failed');

export type BreakerOperation = 'acquire' | 'release' | 'read';

/**
 * Runs a breaker command with a deadline (`timeoutMs`): an error or no answer in time is
 * counted, logged (rate-limited) and answered FAILED, never thrown into a delivery.
 */
export function createRedisGuard(timeoutMs: number, errors: Counter<'operation'>, failOpen: ReturnType<typeof createFailOpenLog>) {
  return async function guard<T>(operation: BreakerOperation, run: () => Promise<T>): Promise<T | typeof FAILED> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const result = await Promise.race([run(), timeout]);
      failOpen.succeeded();
      return result;
    } catch (error) {
      errors.inc({ operation });
      failOpen.failed(operation, error);
      return FAILED;
    } finally {
      clearTimeout(timer);
    }
  };
}
