import type { Deadline } from './deadline';
import { CancelledError } from './errors';
import { runStep, type RunStepOptions, type StepFn, type StepOutcome } from './run-step';
import type { SplitPolicy } from './split-policy';

export interface SequenceStep<T> {
  readonly step: string;
  readonly run: StepFn<T>;
}

type Outcomes<S extends readonly SequenceStep<unknown>[]> = {
  -readonly [K in keyof S]: S[K] extends SequenceStep<infer T> ? StepOutcome<T> : never;
};

export interface SequenceResult<S extends readonly SequenceStep<unknown>[]> {
  /** The planned share per step (ms), from the policy at the branch's start. */
  readonly shares: Readonly<Record<string, number>>;
  readonly outcomes: Outcomes<S>;
}

export interface RunSequenceOptions extends RunStepOptions {
  /**
   * Stop after the first failed step (the rest are reported as cancelled, not called).
   * @defaultValue false — every step is attempted with what is left, as in the seed's model:
   * a step that finds its time eaten by a predecessor records that as its own failure,
   * which is exactly the signal that tells a greedy split apart from a weighted one.
   */
  stopOnFailure?: boolean;
}

/**
 * Runs dependent sub-calls one after another inside `branch`, each with
 * min(its planned share, what is left of the branch).
 */
export async function runSequence<const S extends readonly SequenceStep<unknown>[]>(
  branch: Deadline,
  policy: SplitPolicy,
  steps: S,
  options: RunSequenceOptions = {},
): Promise<SequenceResult<S>> {
  const planned = policy.shares(
    branch.remainingMs(),
    steps.map((s) => s.step),
  );
  const shares: Record<string, number> = {};
  const outcomes: StepOutcome<unknown>[] = [];
  let failed = false;
  for (const [index, { step, run }] of steps.entries()) {
    const share = planned[index] as number;
    shares[step] = share;
    if (failed && options.stopOnFailure === true) {
      const now = branch.clock.now();
      const error = new CancelledError(step, 'an earlier step of the sequence failed');
      options.observer?.onStep?.({ step, policy: options.policy ?? policy.name, outcome: 'cancelled', durationMs: 0 });
      outcomes.push({ ok: false, kind: 'cancelled', error, step, timeoutMs: 0, startedAt: now, endedAt: now, elapsedMs: 0, called: false });
      continue;
    }
    const outcome = await runStep(branch, step, share, run, { ...options, policy: options.policy ?? policy.name });
    if (!outcome.ok) failed = true;
    outcomes.push(outcome);
  }
  return { shares, outcomes: outcomes as Outcomes<S> };
}
