import { CancelledError, DeadlineExceededError, isDeadlineExceeded } from './errors';

/** The reason a deadline aborts with when its own budget runs out. */
export function expiredReason(step: string, budgetMs: number): DeadlineExceededError {
  return new DeadlineExceededError(step, budgetMs);
}

/**
 * The reason a deadline aborts with when what it follows aborted: a parent's expiry is this
 * step running out of time (its callers treat it as an expiry); anything else is a cancellation.
 */
export function reasonFromParent(step: string, budgetMs: number, reason: unknown): Error {
  if (isDeadlineExceeded(reason)) {
    return new DeadlineExceededError(step, budgetMs, {
      message: `${step} ran out of time: ${reason.message}`,
      cause: reason,
    });
  }
  const text = reason instanceof Error ? reason.message : 'parent aborted';
  return new CancelledError(step, text, { cause: reason });
}
