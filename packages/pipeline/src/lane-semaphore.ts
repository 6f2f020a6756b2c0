/**
 * A counting semaphore, first come first served. A lane's worker runs batch jobs whose items
 * are processed concurrently; one semaphore per lane per process keeps the bulkhead's bound
 * (at most `capacity` calls in flight on this lane in this process) whatever mix of single
 * and batch jobs BullMQ hands out. Its limit may be lowered below the capacity for a while
 * (a reminder lane giving way to urgent work, reminder-yield.ts): calls in flight finish, and no
 * new one starts until fewer than the limit run.
 */
export class LaneSemaphore {
  private active = 0;
  private allowed: number;
  private readonly waiting: { start: () => void; since: number }[] = [];

  constructor(
    readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`semaphore capacity must be a positive integer, got ${capacity}`);
    this.allowed = capacity;
  }

  /** Slots that may be in use now (the capacity unless lowered). */
  get limit(): number {
    return this.allowed;
  }

  /** Sets the limit (1 to capacity); a raised one starts waiters at once. */
  setLimit(limit: number): void {
    this.allowed = Math.max(1, Math.min(this.capacity, Math.floor(limit)));
    while (this.active < this.allowed) {
      const next = this.waiting.shift();
      if (!next) break;
      this.active += 1;
      next.start();
    }
  }

  /** Slots in use now. */
  get inUse(): number {
    return this.active;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** How long the first caller in line has waited for a slot, ms (0 with none waiting). */
  get longestWaitMs(): number {
    const first = this.waiting[0];
    return first ? Math.max(0, this.now() - first.since) : 0;
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
    if (this.active < this.allowed) {
      this.active += 1;
      return Promise.resolve();
    }
    // The releasing caller hands its slot straight to the first waiter (active stays the same).
    return new Promise((resolve) => this.waiting.push({ start: resolve, since: this.now() }));
  }

  private release(): void {
    // Over a lowered limit the slot is given back instead of handed on.
    const next = this.active <= this.allowed ? this.waiting.shift() : undefined;
    if (next) next.start();
    else this.active -= 1;
  }
}
