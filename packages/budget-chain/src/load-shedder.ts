import { monitorEventLoopDelay } from 'node:perf_hooks';
import { systemTimer, type Timer, type TimerHandle } from './clock';

/** Event-loop delay over the last window, in ms; each call starts a new window. */
export interface LoopDelaySampler {
  sample(): number;
  stop(): void;
}

/**
 * `perf_hooks.monitorEventLoopDelay`: how late a `resolutionMs` timer fires, p90 of the
 * window. It sees every cause a request's own timers suffer: our own CPU work, GC pauses,
 * other processes holding the cores. p90, not the max: one stall (a GC pause, start-up)
 * says little about the next window, a loop that is late on most ticks does.
 * The histogram records whole intervals, so the resolution is subtracted.
 */
export function eventLoopDelaySampler(resolutionMs = 5): LoopDelaySampler {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  return {
    sample() {
      const p90 = histogram.count > 0 ? Math.max(0, histogram.percentile(90) / 1e6 - resolutionMs) : 0;
      histogram.reset();
      return p90;
    },
    stop() {
      histogram.disable();
    },
  };
}

export type ShedReason = 'loop_delay' | 'in_flight';

export interface LoadShedderOptions {
  /** Refuse new work while the last window's loop delay (p90) is above this; 0 = never. */
  maxLoopDelayMs: number;
  /** Refuse new work while this many admitted requests are unanswered; 0 = no cap. */
  maxInFlight: number;
  /** Length of one loop-delay window. @defaultValue 250 */
  windowMs?: number;
  /** @defaultValue eventLoopDelaySampler(5) */
  sampler?: LoopDelaySampler;
  /** Re-arms the window. @defaultValue systemTimer (unref'd) */
  timer?: Timer;
  /** Told on each new window (metrics). */
  onWindow?: (loopDelayMs: number) => void;
}

/**
 * Refuses new requests (the caller answers 503 + Retry-After) before the process is too
 * late to keep the deadlines of those it already holds. Two signals: the event loop's delay
 * (timers, so deadlines, fire that late) and the number of admitted requests in flight
 * (Little's law: at the K01 rate and a 200 ms worst case, 84 is the most a healthy process
 * holds). Cheap on the hot path: two comparisons; the histogram is read once per window.
 */
export class LoadShedder {
  private readonly windowMs: number;
  private readonly sampler: LoopDelaySampler;
  private readonly timer: Timer;
  private handle: TimerHandle | undefined;
  private lastDelayMs = 0;
  private admitted = 0;
  private stopped = false;

  constructor(private readonly options: LoadShedderOptions) {
    this.windowMs = options.windowMs ?? 250;
    this.sampler = options.sampler ?? eventLoopDelaySampler();
    this.timer = options.timer ?? systemTimer;
    this.arm();
  }

  /** The last window's loop delay (ms): what a timer set now is expected to be late by. */
  get loopDelayMs(): number {
    return this.lastDelayMs;
  }

  get inFlight(): number {
    return this.admitted;
  }

  /** Why a new request must be refused now, or undefined to admit it (then call `leave()` once when it is answered). */
  admit(): ShedReason | undefined {
    const { maxLoopDelayMs, maxInFlight } = this.options;
    if (maxLoopDelayMs > 0 && this.lastDelayMs > maxLoopDelayMs) return 'loop_delay';
    if (maxInFlight > 0 && this.admitted >= maxInFlight) return 'in_flight';
    this.admitted += 1;
    return undefined;
  }

  leave(): void {
    if (this.admitted > 0) this.admitted -= 1;
  }

  /** Closes the current window now (the timer does it every `windowMs`). */
  refresh(): void {
    this.lastDelayMs = this.sampler.sample();
    this.options.onWindow?.(this.lastDelayMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== undefined) this.timer.clear(this.handle);
    this.handle = undefined;
    this.sampler.stop();
  }

  private arm(): void {
    if (this.stopped) return;
    this.handle = this.timer.set(() => {
      this.refresh();
      this.arm();
    }, this.windowMs);
  }
}
