import { isBudgetError, isCancelled, isDeadlineExceeded, isDependencyFailed, type RequestOutcome } from '@notify/budget-chain';
import type { TrackingQueryResult } from './query';

export interface ErrorAnswer {
  readonly status: number;
  readonly outcome: RequestOutcome;
  readonly body: { error: { code: string; step: string; message: string; upstreamStatus?: number }; budget: unknown };
}

/** Maps a failed query to its answer: 504 for a step out of time, 502 for a store error. */
export function failureAnswer(result: Extract<TrackingQueryResult, { ok: false }>): ErrorAnswer {
  const { error, step, budget } = result;
  const message = error instanceof Error ? error.message : `${step} failed`;
  if (isDeadlineExceeded(error)) {
    const share = budget.steps.find((s) => s.step === step)?.timeoutMs ?? 0;
    return {
      status: 504,
      outcome: 'deadline_exceeded',
      body: { error: { code: 'DEADLINE_EXCEEDED', step, message: `${message} (${Math.round(share)} ms allowed, policy ${budget.policy})` }, budget },
    };
  }
  if (isDependencyFailed(error)) {
    const upstream = error.upstreamStatus === undefined ? {} : { upstreamStatus: error.upstreamStatus };
    return { status: 502, outcome: 'dependency_failed', body: { error: { code: 'DEPENDENCY_FAILED', step, message, ...upstream }, budget } };
  }
  if (isCancelled(error)) {
    // Only reached when the gateway itself is shutting down (a gone client gets no answer).
    return { status: 503, outcome: 'cancelled', body: { error: { code: 'CANCELLED', step, message }, budget } };
  }
  const code = isBudgetError(error) ? error.code : 'INTERNAL';
  return { status: 500, outcome: 'dependency_failed', body: { error: { code, step, message }, budget } };
}
