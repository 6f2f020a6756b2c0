/**
 * Time sources. A deadline is measured on a monotonic clock (wall clocks jump: NTP, DST,
 * a VM resume), and its expiry is armed on an injectable timer so tests can drive both
 * with one logical clock (see ManualTime) instead of sleeping.
 */

/** Monotonic milliseconds; only differences are meaningful. */
export interface Clock {
  now(): number;
}

/**
 * Opaque handle returned by `Timer.set`; only ever passed back to `Timer.clear`. Never null or
 * undefined, so `TimerHandle | undefined` can mean "no timer armed".
 */
export type TimerHandle = object | number;

/** A one-shot timer. Implementations must never call `callback` synchronously inside `set`. */
export interface Timer {
  set(callback: () => void, delayMs: number): TimerHandle;
  clear(handle: TimerHandle): void;
}

/** `performance.now()`: monotonic, sub-millisecond, per process. */
export const monotonicClock: Clock = { now: () => performance.now() };

/** Node's largest setTimeout delay; anything above it would fire after 1 ms. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * The global setTimeout, looked up at call time so jest's fake timers can stand in for it.
 * Handles are unref'd: a pending deadline must never keep a process alive on its own.
 */
export const systemTimer: Timer = {
  set(callback, delayMs) {
    const handle = setTimeout(callback, Math.min(Math.max(0, delayMs), MAX_TIMER_DELAY_MS));
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clear(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
