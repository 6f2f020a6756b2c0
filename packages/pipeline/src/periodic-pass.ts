import type { Logger } from 'pino';

/**
 * A pass run every `intervalMs` (0: never), never two at once: a tick while one runs is
 * skipped, and `run()` while one runs joins it. A failed pass is logged (`failure`, the
 * message) and the next tick tries again. The per-partition loops (sweeper, releaser, parker)
 * are each one of these around their own pass.
 */
export class PeriodicPass<T> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<T> | undefined;

  constructor(private readonly o: { intervalMs: number; pass: () => Promise<T>; logger: Logger; failure: string }) {}

  start(): void {
    if (this.o.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      void this.run().catch((error: unknown) => this.o.logger.warn({ err: error }, this.o.failure));
    }, this.o.intervalMs);
    this.timer.unref();
  }

  run(): Promise<T> {
    this.running ??= this.o.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}

/**
 * Batch after batch until one reads fewer than `size` (or makes no progress, `done` 0, when
 * `untilIdle`), at most `maxBatches`: a pass never runs away, the next tick goes on. Returns the
 * sum of `done`.
 */
export async function batchesUntilShort(
  maxBatches: number,
  size: number,
  batch: () => Promise<{ read: number; done: number }>,
  untilIdle = false,
): Promise<number> {
  let total = 0;
  for (let round = 0; round < maxBatches; round += 1) {
    const { read, done } = await batch();
    total += done;
    if (read < size || (untilIdle && done === 0)) break;
  }
  return total;
}
