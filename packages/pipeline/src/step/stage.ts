import type { StepContext, StepServices } from './step-context';
import type { EndStatus, StepResult } from './step-types';

/**
 * What a stage decided about the step:
 * - `continue`: the next stage runs;
 * - `done`: the step is over with this result (the stage did what the outcome needed);
 * - `defer`: run this step again at `untilMs` (the record moves to a fresh step on the same
 *   channel, as a step waiting out an outage does); nothing was called;
 * - `end`: end the notification now with this status and reason (the terminal hook tells
 *   metrics and webhooks).
 * `defer` and `end` are for stages before begin-attempt: after it an attempt is open, and
 * only the call's own outcome may close it.
 */
export type StageVerdict =
  | { kind: 'continue' }
  | { kind: 'done'; result: StepResult }
  | { kind: 'defer'; untilMs: number; reason: string }
  | { kind: 'end'; status: EndStatus; reason: string };

/** One job of the step path, in its own file; composed in step-stages.ts. */
export interface StepStage {
  readonly name: string;
  run(ctx: StepContext, services: StepServices): Promise<StageVerdict>;
}

export const CONTINUE: StageVerdict = { kind: 'continue' };

export const done = (result: StepResult): StageVerdict => ({ kind: 'done', result });
