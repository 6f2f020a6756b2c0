/**
 * The budget chain's error catalog. Every failure a budgeted call can end in has one code,
 * one HTTP status and one retryability, so a gateway maps them without string matching and
 * a test can check the README documents each code.
 */
export const BUDGET_ERROR_CATALOG = {
  DEADLINE_EXCEEDED: {
    httpStatus: 504,
    retryable: false,
    summary: 'A step did not finish within min(its share, what was left of the budget). Retrying inside the same budget cannot help.',
  },
  CANCELLED: {
    httpStatus: 499,
    retryable: false,
    summary: 'The caller gave up (its own deadline, a parent deadline or a client disconnect) and the work was told to stop.',
  },
  INVALID_DEADLINE_HEADER: {
    httpStatus: 400,
    retryable: false,
    summary: 'A propagated deadline header is malformed or negative; `header` names it.',
  },
  DEPENDENCY_FAILED: {
    httpStatus: 502,
    retryable: true,
    summary: 'A dependency answered with an error status, an unreadable body, or could not be reached.',
  },
  OVERLOADED: {
    httpStatus: 503,
    retryable: true,
    summary:
      'Refused before any work (with Retry-After): the event loop runs too late, or too many queries are in flight, to keep another deadline; `reason` says which.',
  },
} as const;

export type BudgetErrorCode = keyof typeof BUDGET_ERROR_CATALOG;

const BUDGET_ERROR = Symbol.for('notify.budget-chain.error');

interface BudgetErrorOptions {
  step?: string | undefined;
  cause?: unknown;
}

/**
 * Base class. Branded with a registry symbol (not `instanceof`) so guards still hold when
 * two copies of the package are loaded, e.g. by jest's module isolation.
 */
export class BudgetError extends Error {
  readonly [BUDGET_ERROR] = true;
  readonly code: BudgetErrorCode;
  readonly httpStatus: number;
  readonly retryable: boolean;
  /** The step (sub-call) this error belongs to, when there is one. */
  readonly step: string | undefined;

  constructor(code: BudgetErrorCode, message: string, options: BudgetErrorOptions = {}) {
    // An expiry or a cancellation is an outcome, not a bug: it happens on every slow request,
    // its code and step say all there is to say, and a captured stack costs microseconds to
    // take and far more to format (source-mapped) when a socket destroyed with it reads it.
    const stackTraceLimit = Error.stackTraceLimit;
    if (code === 'DEADLINE_EXCEEDED' || code === 'CANCELLED') Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'BudgetError';
    this.code = code;
    this.httpStatus = BUDGET_ERROR_CATALOG[code].httpStatus;
    this.retryable = BUDGET_ERROR_CATALOG[code].retryable;
    this.step = options.step;
  }
}

export class DeadlineExceededError extends BudgetError {
  override readonly code = 'DEADLINE_EXCEEDED' as const;
  /** The time this step was allowed, in ms (min of its share and what was left). */
  readonly budgetMs: number;

  constructor(step: string, budgetMs: number, options: { message?: string; cause?: unknown } = {}) {
    const message = options.message ?? `${step} did not finish within its ${formatMs(budgetMs)} ms budget`;
    super('DEADLINE_EXCEEDED', message, { step, cause: options.cause });
    this.name = 'DeadlineExceededError';
    this.budgetMs = budgetMs;
  }
}

export class CancelledError extends BudgetError {
  override readonly code = 'CANCELLED' as const;

  constructor(step: string, reason: string, options: { cause?: unknown } = {}) {
    super('CANCELLED', `${step} cancelled: ${reason}`, { step, cause: options.cause });
    this.name = 'CancelledError';
  }
}

export class InvalidDeadlineHeaderError extends BudgetError {
  override readonly code = 'INVALID_DEADLINE_HEADER' as const;
  readonly header: string;

  constructor(header: string, reason: string) {
    super('INVALID_DEADLINE_HEADER', `invalid ${header} header: ${reason}`);
    this.name = 'InvalidDeadlineHeaderError';
    this.header = header;
  }
}

export class DependencyFailedError extends BudgetError {
  override readonly code = 'DEPENDENCY_FAILED' as const;
  /** The dependency's HTTP status, or undefined when it could not be reached at all. */
  readonly upstreamStatus: number | undefined;

  constructor(step: string, message: string, options: { upstreamStatus?: number; cause?: unknown } = {}) {
    super('DEPENDENCY_FAILED', message, { step, cause: options.cause });
    this.name = 'DependencyFailedError';
    this.upstreamStatus = options.upstreamStatus;
  }
}

export function isBudgetError(error: unknown): error is BudgetError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BUDGET_ERROR] === true;
}

export function isDeadlineExceeded(error: unknown): error is DeadlineExceededError {
  return isBudgetError(error) && error.code === 'DEADLINE_EXCEEDED';
}

export function isCancelled(error: unknown): error is CancelledError {
  return isBudgetError(error) && error.code === 'CANCELLED';
}

export function isInvalidDeadlineHeader(error: unknown): error is InvalidDeadlineHeaderError {
  return isBudgetError(error) && error.code === 'INVALID_DEADLINE_HEADER';
}

export function isDependencyFailed(error: unknown): error is DependencyFailedError {
  return isBudgetError(error) && error.code === 'DEPENDENCY_FAILED';
}

function formatMs(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}
