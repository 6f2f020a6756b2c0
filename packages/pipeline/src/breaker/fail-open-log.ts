import type { Logger } from 'pino';

/**
 * Logs the breaker's fail-open decisions without flooding: the first failure of an outage is
 * logged at once, then at most one line per `intervalMs` (with how many were not logged),
 * and the recovery once. Every failure is still counted in notify_breaker_redis_errors_total.
 */
export function createFailOpenLog(logger: Logger, intervalMs = 10_000, now: () => number = Date.now) {
  let failing = false;
  let lastLogAt = 0;
  let unlogged = 0;
  return {
    failed(operation: string, error: unknown): void {
      const at = now();
      if (!failing || at - lastLogAt >= intervalMs) {
        logger.warn({ err: error, operation, unlogged }, 'breaker state unreachable in Redis: failing OPEN (channel treated as closed, the call is allowed)');
        lastLogAt = at;
        unlogged = 0;
      } else {
        unlogged += 1;
      }
      failing = true;
    },
    succeeded(): void {
      if (!failing) return;
      failing = false;
      logger.info({ unlogged }, 'breaker state reachable in Redis again: breakers decide again');
      unlogged = 0;
    },
    get failing(): boolean {
      return failing;
    },
  };
}
