import { createDeadline, type Deadline } from '@notify/budget-chain';

export interface WarmUpOptions {
  /** Queries to run; 0 skips the warm-up. */
  readonly queries: number;
  /** How many run at once (also how many keep-alive sockets per store it opens). */
  readonly concurrency: number;
  /** Stop starting new queries after this long, whatever answered. */
  readonly maxMs: number;
  readonly budgetMs: number;
  /** Shutdown: stops the warm-up and aborts its reads. */
  readonly signal?: AbortSignal;
}

export interface WarmUpReport {
  readonly queries: number;
  readonly answered: number;
  readonly elapsedMs: number;
}

/**
 * Runs tracking queries against the real stores before the api reports ready. A process that
 * takes traffic cold answers its first few hundred queries in interpreted code and opens a
 * socket per store per concurrent query: at the K01 rate that pushed answers sent in the first
 * ~0.3 s past the 200 ms budget (docs/benchmarks-tracking.md, "What bounds them"). The warm-up pays
 * that before any caller waits on it. Its reads carry their own deadlines; failures (a store
 * down, a 404 for the warm-up ids) only end those queries: readiness never waits on a store.
 */
export async function warmUpTracking(run: (deadline: Deadline, shipmentId: string) => Promise<boolean>, options: WarmUpOptions): Promise<WarmUpReport> {
  const started = performance.now();
  let next = 0;
  let answered = 0;
  const stop = (): boolean => options.signal?.aborted === true || performance.now() - started > options.maxMs;
  const lane = async (): Promise<void> => {
    while (next < options.queries && !stop()) {
      const n = next;
      next += 1;
      const deadline = createDeadline({ budgetMs: options.budgetMs, step: 'tracking-warm-up', parent: options.signal });
      try {
        if (await run(deadline, `WARMUP-${n}`)) answered += 1;
      } catch {
        // A failed warm-up query has still exercised the path; the next one goes on.
      } finally {
        deadline.dispose();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(0, Math.min(options.concurrency, options.queries)) }, lane));
  return { queries: next, answered, elapsedMs: performance.now() - started };
}
