import { beginAttemptStage } from './begin-attempt-stage';
import { breakerGateStage } from './breaker-gate-stage';
import { cascadeStage } from './cascade-stage';
import { deferStep } from './defer-step';
import { endReadingRecord } from './end-notification';
import { finishAttemptStage } from './finish-attempt-stage';
import { optedOutStage } from './opted-out-stage';
import { providerCallStage } from './provider-call-stage';
import { quietHoursStage } from './quiet-hours-stage';
import { renderStage } from './render-stage';
import type { StepStage } from './stage';
import { releaseTicket, type StepContext, type StepServices } from './step-context';
import type { StepResult } from './step-types';
import { unknownOutcomeStage } from './unknown-outcome-stage';

/**
 * The step path, in order. A check that may hold a step back or end the notification (one that
 * answers `defer` or `end`) goes before begin-attempt, where nothing is open yet.
 */
export const STEP_STAGES: readonly StepStage[] = [
  optedOutStage,
  quietHoursStage,
  breakerGateStage,
  beginAttemptStage,
  renderStage,
  providerCallStage,
  finishAttemptStage,
  unknownOutcomeStage,
  cascadeStage,
];

/** Runs the stages until one answers; a breaker ticket still held at the end (a throw) is released as not called. */
export async function runStages(stages: readonly StepStage[], ctx: StepContext, s: StepServices): Promise<StepResult> {
  try {
    for (const stage of stages) {
      const verdict = await stage.run(ctx, s);
      switch (verdict.kind) {
        case 'continue':
          continue;
        case 'done':
          return verdict.result;
        case 'defer':
          await releaseTicket(ctx, 'not-called');
          return await deferStep(ctx, s, verdict.untilMs, verdict.reason);
        case 'end':
          await releaseTicket(ctx, 'not-called');
          await endReadingRecord(ctx, s, verdict.status, verdict.reason, ctx.data.step);
          return { action: 'ended', status: verdict.status, reason: verdict.reason };
      }
    }
    throw new Error(`the step stages (${stages.map((st) => st.name).join(', ')}) ended without a result`);
  } finally {
    await releaseTicket(ctx, 'not-called');
  }
}
