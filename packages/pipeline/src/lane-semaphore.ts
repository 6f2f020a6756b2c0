/**
 * A counting semaphore, first come first served. A lane's worker runs batch jobs whose items
 * are processed concurrently; one semaphore per lane per process keeps the bulkhead's bound
 * (at most `capacity` calls in flight on this lane in this process) whatever mix of single
 * and batch jobs BullMQ hands out.
 */
export class LaneSemaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`semaphore capacity must be a positive integer, got ${capacity}`);
  }

  /** Slots in use now. */
  get inUse(): number {
    return this.active;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` holding one slot; the slot is given back however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.capacity) {
      this.active += 1;
      return Promise.resolve();
    }
    // The releasing caller hands its slot straight to the first waiter (active stays the same).
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
