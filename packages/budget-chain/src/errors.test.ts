import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUDGET_ERROR_CATALOG,
  CancelledError,
  DeadlineExceededError,
  DependencyFailedError,
  InvalidDeadlineHeaderError,
  isBudgetError,
  isCancelled,
  isDeadlineExceeded,
  isDependencyFailed,
  isInvalidDeadlineHeader,
} from './errors';

describe('budget errors', () => {
  it('carry code, step, status and retryability from the catalog', () => {
    const error = new DeadlineExceededError('tariff', 60);
    expect(error).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'tariff', httpStatus: 504, retryable: false, budgetMs: 60 });
    expect(error.message).toBe('tariff did not finish within its 60 ms budget');
    expect(new DependencyFailedError('tariff', 'x', { upstreamStatus: 500 })).toMatchObject({ httpStatus: 502, retryable: true });
  });

  it('each guard accepts only its own code; plain errors and look-alikes are rejected', () => {
    const all = [
      new DeadlineExceededError('a', 1),
      new CancelledError('a', 'why'),
      new InvalidDeadlineHeaderError('x-request-timeout-ms', 'bad'),
      new DependencyFailedError('a', 'down'),
    ];
    const guards = [isDeadlineExceeded, isCancelled, isInvalidDeadlineHeader, isDependencyFailed];
    guards.forEach((guard, g) => all.forEach((error, e) => expect(guard(error)).toBe(g === e)));
    expect(isBudgetError(new Error('x'))).toBe(false);
    expect(isBudgetError({ code: 'DEADLINE_EXCEEDED' })).toBe(false);
    expect(isDeadlineExceeded(undefined)).toBe(false);
  });

  it('every code is documented in the README', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    for (const code of Object.keys(BUDGET_ERROR_CATALOG)) expect(readme).toContain(`\`${code}\``);
  });
});
