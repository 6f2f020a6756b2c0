import { NotifyError, type LimitRefusal, type TenantLimitState } from '@notify/core';

const LIMIT_ERROR = Symbol.for('notify.tenant-limit-error');

/**
 * A notification refused by its tenant's limits: RATE_LIMITED or QUOTA_EXCEEDED, carrying where
 * the tenant stands so the answer can say when to come back (Retry-After, RateLimit headers).
 */
export class TenantLimitError extends NotifyError {
  readonly [LIMIT_ERROR] = true;

  constructor(
    readonly refusal: LimitRefusal,
    readonly limit: TenantLimitState,
  ) {
    super(
      refusal === 'quota' ? 'QUOTA_EXCEEDED' : 'RATE_LIMITED',
      refusal === 'quota'
        ? "the tenant's daily quota is used up until the UTC day ends (Retry-After says when)"
        : "over the tenant's intake rate: retry after Retry-After seconds",
    );
  }
}

export function isTenantLimitError(error: unknown): error is TenantLimitError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[LIMIT_ERROR] === true;
}
