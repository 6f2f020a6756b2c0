import {
  BUDGET_ERROR_CATALOG,
  isBudgetError,
  isCancelled,
  isDeadlineExceeded,
  isDependencyFailed,
  type RequestOutcome,
  type ShedReason,
} from '@notify/budget-chain';
import type { LateStep } from './progress';
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

/** What the deadline guard knows when it answers for a query still running. */
export interface GuardBudget {
  readonly policy: string;
  readonly budgetMs: number;
  readonly gatewayShareMs: number;
  readonly elapsedMs: number;
  readonly answeredBy: 'deadline-guard';
}

/** The guard's 504: names the read that ran out first, else the one still running furthest past its timeout, else the gateway's own work. */
export function guardAnswer(late: LateStep, budget: GuardBudget): ErrorAnswer {
  const message =
    late.step === 'tracking'
      ? `tracking answered at its deadline (${Math.round(budget.elapsedMs)} of ${budget.budgetMs} ms): the gateway's own work ran late`
      : late.ranOut
        ? `${late.step} did not finish within its ${Math.round(late.timeoutMs)} ms (policy ${budget.policy}); answered at the deadline`
        : `${late.step} still running after ${Math.round(late.runningMs)} ms (${Math.round(late.timeoutMs)} ms allowed, policy ${budget.policy}); answered at the deadline`;
  const steps = late.step === 'tracking' ? [] : [{ step: late.step, outcome: 'deadline_exceeded', elapsedMs: late.runningMs, timeoutMs: late.timeoutMs }];
  return { status: 504, outcome: 'deadline_exceeded', body: { error: { code: 'DEADLINE_EXCEEDED', step: late.step, message }, budget: { ...budget, steps } } };
}

/** 503 before any work: the process is too late (loop delay) or too full (in flight) to keep another deadline. */
export function shedAnswer(
  reason: ShedReason,
  retryAfterS: number,
): { status: number; body: { error: { code: 'OVERLOADED'; reason: ShedReason; message: string } } } {
  const why = reason === 'loop_delay' ? 'the event loop is running late' : 'too many tracking queries are in flight';
  const status = BUDGET_ERROR_CATALOG.OVERLOADED.httpStatus;
  return { status, body: { error: { code: 'OVERLOADED', reason, message: `tracking query refused: ${why}; retry after ${retryAfterS} s` } } };
}
