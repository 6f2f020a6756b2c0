import type { Clock, Timer, TimerHandle } from './clock';

interface Scheduled {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/** Lets every queued promise continuation run before the next timer fires. */
function drainMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A logical clock and timer in one: time moves only when a test advances it, and timers
 * fire in (due time, registration order). Between two timers every pending promise
 * continuation runs, so code awaiting a timer observes the same ordering it would in real
 * time, with no sleeps and no dependence on machine speed. This is what lets the unit tests
 * replay the seed's logical-clock model through the real Deadline code.
 */
export class ManualTime implements Clock, Timer {
  private current: number;
  private nextId = 1;
  private readonly queue: Scheduled[] = [];

  constructor(startMs = 0) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  set(callback: () => void, delayMs: number): TimerHandle {
    const entry: Scheduled = { id: this.nextId++, due: this.current + Math.max(0, delayMs), callback };
    // Keep the queue sorted by (due, id); insertion is linear but queues stay small.
    let index = this.queue.length;
    while (index > 0 && (this.queue[index - 1] as Scheduled).due > entry.due) index -= 1;
    this.queue.splice(index, 0, entry);
    return entry.id;
  }

  clear(handle: TimerHandle): void {
    const index = this.queue.findIndex((entry) => entry.id === handle);
    if (index >= 0) this.queue.splice(index, 1);
  }

  /** Number of timers armed and not yet fired or cleared. */
  pending(): number {
    return this.queue.length;
  }

  /** A promise that resolves after `ms` of logical time, or rejects with the signal's reason. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        this.clear(handle);
        reject(signal?.reason);
      };
      const handle = this.set(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Fires the earliest timer (moving the clock to its due time); false when none is armed. */
  async step(): Promise<boolean> {
    await drainMicrotasks();
    const entry = this.queue.shift();
    if (entry === undefined) return false;
    this.current = Math.max(this.current, entry.due);
    entry.callback();
    await drainMicrotasks();
    return true;
  }

  /** Fires every timer due up to `now + ms`, then leaves the clock at `now + ms`. */
  async advanceBy(ms: number): Promise<void> {
    const target = this.current + ms;
    await drainMicrotasks();
    while (this.queue.length > 0 && (this.queue[0] as Scheduled).due <= target) await this.step();
    this.current = target;
    await drainMicrotasks();
  }

  /** Fires timers until `promise` settles; throws if time runs dry first (a hung test). */
  async settle<T>(promise: Promise<T>, maxSteps = 100_000): Promise<T> {
    let settled = false;
    const observed = promise.then(
      (value) => {
        settled = true;
        return value;
      },
      (error: unknown) => {
        settled = true;
        throw error;
      },
    );
    observed.catch(() => undefined);
    await drainMicrotasks();
    for (let steps = 0; !settled; steps += 1) {
      if (steps >= maxSteps || !(await this.step())) {
        if (settled) break;
        throw new Error(`ManualTime.settle: no timer left to fire and the promise is still pending (t=${this.current})`);
      }
    }
    return observed;
  }

  /** Fires every armed timer, including ones armed while firing (bounded by `maxSteps`). */
  async runAll(maxSteps = 100_000): Promise<void> {
    for (let steps = 0; steps < maxSteps; steps += 1) {
      if (!(await this.step())) return;
    }
    throw new Error(`ManualTime.runAll: still armed after ${maxSteps} timers`);
  }
}
