import type { ApiErrorCode } from './types';

/**
 * The codes a client error carries: the api's catalog, and three of the client's own for an
 * answer that never came (`NETWORK_ERROR`, `TIMEOUT`) or was not the api's shape.
 */
export type NotifyErrorCode = ApiErrorCode | 'NETWORK_ERROR' | 'TIMEOUT' | 'UNEXPECTED_RESPONSE';

export interface FieldIssue {
  field: string;
  reason: string;
}

const BRAND = Symbol.for('@notify/client.error');

/** An answer the api refused, or a call that got no answer (`status` 0). */
export class NotifyError extends Error {
  readonly [BRAND] = true;
  override readonly name = 'NotifyError';
  readonly code: NotifyErrorCode;
  /** The HTTP status, or 0 when no answer arrived. */
  readonly status: number;
  /** The api's `x-request-id` for this answer: quote it when asking the operators. */
  readonly requestId: string | undefined;
  /** One entry per invalid field (`VALIDATION_FAILED`). */
  readonly details: readonly FieldIssue[];
  /** The api's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    code: NotifyErrorCode;
    message: string;
    status: number;
    requestId?: string | undefined;
    details?: readonly FieldIssue[];
    retryAfterMs?: number | undefined;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** True for every error this client throws, also one from another copy of the package. */
export function isNotifyError(error: unknown): error is NotifyError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
