import type { Deadline } from './deadline';
import type { TimerHandle } from './clock';

/** One answer per request: whoever claims first (the work or the guard) writes it. */
export interface AnswerGuard {
  /** True for the first caller only; the work calls it before writing its own answer. */
  claim(): boolean;
  /** Clears the guard's timer (call when the work answered). Idempotent. */
  dispose(): void;
  /** True once the guard fired and answered. */
  readonly fired: boolean;
}

/**
 * Answers a request at `deadline.expiresAt - reserveMs` if its work has not answered by then.
 *
 * Why a separate timer: the work's own path to an answer runs through every step's abort,
 * promise hops and the other branch's tail before anything is written; under load each hop
 * waits its turn on a busy event loop. This timer's callback writes the answer itself, so it
 * waits for one timer turn only. `reserveMs` is the time kept for writing the answer and for
 * the loop's measured delay, so the answer leaves before the budget ends.
 */
export function answerBy(deadline: Deadline, reserveMs: number, onDeadline: () => void): AnswerGuard {
  let claimed = false;
  let fired = false;
  let handle: TimerHandle | undefined;
  const guard: AnswerGuard = {
    claim() {
      if (claimed) return false;
      claimed = true;
      guard.dispose();
      return true;
    },
    dispose() {
      if (handle !== undefined) deadline.timer.clear(handle);
      handle = undefined;
    },
    get fired() {
      return fired;
    },
  };
  if (!Number.isFinite(deadline.expiresAt)) return guard;
  // Rounded down: a timer may fire late but never early, so early is the side to err on.
  const delayMs = Math.max(0, Math.floor(deadline.expiresAt - reserveMs - deadline.clock.now()));
  handle = deadline.timer.set(() => {
    handle = undefined;
    if (claimed) return;
    claimed = true;
    fired = true;
    onDeadline();
  }, delayMs);
  return guard;
}
