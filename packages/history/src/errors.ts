import { NotifyError } from '@notify/core';

const INVALID_CURSOR = Symbol.for('notify.history.invalid-cursor');

/**
 * A list cursor that this store did not issue (or that was altered). A VALIDATION_FAILED
 * NotifyError naming `cursor`, so the API's error handler answers 400 without special-casing.
 */
export class InvalidCursorError extends NotifyError {
  readonly [INVALID_CURSOR] = true;

  constructor(reason: string) {
    super('VALIDATION_FAILED', `invalid request: cursor: ${reason}`, { details: [{ field: 'cursor', reason }] });
    this.name = 'InvalidCursorError';
  }
}

export function isInvalidCursorError(error: unknown): error is InvalidCursorError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[INVALID_CURSOR] === true;
}
