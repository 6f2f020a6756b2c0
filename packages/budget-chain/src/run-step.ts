import type { Deadline } from './deadline';
import { DeadlineExceededError, isCancelled, isDeadlineExceeded } from './errors';
import type { BudgetObserver, StepOutcomeKind } from './observer';

/** What a step's work receives: its own deadline and signal, already linked to the caller's. */
export interface StepContext {
  readonly step: string;
  readonly deadline: Deadline;
  readonly signal: AbortSignal;
  /** min(share, remaining) when the step started, in ms. */
  readonly timeoutMs: number;
}

export type StepFn<T> = (context: StepContext) => Promise<T>;

interface OutcomeBase {
  readonly step: string;
  readonly timeoutMs: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly elapsedMs: number;
  /** False when the step was skipped because no time (or no caller) was left. */
  readonly called: boolean;
}

export type StepOutcome<T> =
  | (OutcomeBase & { readonly ok: true; readonly kind: 'ok'; readonly value: T })
  | (OutcomeBase & { readonly ok: false; readonly kind: Exclude<StepOutcomeKind, 'ok'>; readonly error: unknown });

export interface RunStepOptions {
  /** Label for metrics. @defaultValue 'none' */
  policy?: string;
  observer?: BudgetObserver;
}

/** A StepContext whose `signal` is built only if the step's work asks for it (see Deadline.signal). */
class ChildContext implements StepContext {
  constructor(
    readonly step: string,
    readonly deadline: Deadline,
    readonly timeoutMs: number,
  ) {}

  get signal(): AbortSignal {
    return this.deadline.signal;
  }
}

export function classify(error: unknown): Exclude<StepOutcomeKind, 'ok'> {
  if (isDeadlineExceeded(error)) return 'deadline_exceeded';
  if (isCancelled(error)) return 'cancelled';
  return 'error';
}

/**
 * Runs one sub-call with timeout min(shareMs, parent's remaining). Never throws: the result
 * says how it ended. The caller stops waiting when the step's signal aborts even if `fn`
 * ignores the signal (that ignored work is what the dependency reports as abandoned).
 * A step with no time left is not called at all: it fails at once, like the seed's model.
 */
export async function runStep<T>(parent: Deadline, step: string, shareMs: number, fn: StepFn<T>, options: RunStepOptions = {}): Promise<StepOutcome<T>> {
  const policy = options.policy ?? 'none';
  const timeoutMs = Math.min(shareMs, parent.remainingMs());
  const startedAt = parent.clock.now();

  const finish = (outcome: StepOutcome<T>): StepOutcome<T> => {
    options.observer?.onStep?.({ step, policy, outcome: outcome.kind, durationMs: outcome.elapsedMs });
    return outcome;
  };

  if (parent.aborted || timeoutMs <= 0) {
    const error: unknown = parent.aborted
      ? parent.child(step).reason // derives the step-named reason; a born-aborted child holds nothing
      : new DeadlineExceededError(step, 0, { message: `${step} had no time left (budget spent by earlier steps)` });
    return finish({
      ok: false,
      kind: classify(error),
      error,
      step,
      timeoutMs: Math.max(0, timeoutMs),
      startedAt,
      endedAt: startedAt,
      elapsedMs: 0,
      called: false,
    });
  }

  const child = parent.child(step, timeoutMs);
  try {
    const value = await child.race(fn(new ChildContext(step, child, timeoutMs)));
    const endedAt = parent.clock.now();
    return finish({ ok: true, kind: 'ok', value, step, timeoutMs, startedAt, endedAt, elapsedMs: endedAt - startedAt, called: true });
  } catch (caught: unknown) {
    // If the signal fired, report its reason (the step-named deadline or cancellation), even
    // when the work surfaced it wrapped, e.g. as a socket error from an aborted request.
    const error: unknown = child.reason ?? caught;
    const endedAt = parent.clock.now();
    return finish({ ok: false, kind: classify(error), error, step, timeoutMs, startedAt, endedAt, elapsedMs: endedAt - startedAt, called: true });
  } finally {
    child.dispose();
  }
}
