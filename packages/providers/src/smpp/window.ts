/**
 * The SMPP window: at most `size` request PDUs outstanding (written, not yet answered). A caller
 * beyond it waits its turn (first come, first served) up to a bound.
 */
export class SmppWindow {
  private inFlight = 0;
  private readonly waiters: { grant: (granted: boolean) => void; timer: NodeJS.Timeout }[] = [];

  constructor(readonly size: number) {}

  get outstanding(): number {
    return this.inFlight;
  }

  /** Takes a place; answers false when none came free within `waitMs` (or the window was closed). */
  acquire(waitMs: number): Promise<boolean> {
    if (this.inFlight < this.size && this.waiters.length === 0) {
      this.inFlight++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve(false);
        }, waitMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Gives a place back: to the next waiter, or to the pool. */
  release(): void {
    const next = this.waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.grant(true);
      return;
    }
    if (this.inFlight > 0) this.inFlight--;
  }

  /** Refuses every waiter (the adapter is closing). */
  close(): void {
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.grant(false);
    }
  }
}
