/**
 * The error catalog: every error the platform answers with, its HTTP status and whether a
 * client may retry. One place, so the README's error table and the code cannot drift
 * (a unit test checks every code is unique and documented).
 */
export const ERROR_CATALOG = {
  VALIDATION_FAILED: {
    httpStatus: 400,
    retryable: false,
    summary: 'The request body, a path parameter or a query field is invalid; `details` lists each field and reason.',
  },
  MALFORMED_JSON: { httpStatus: 400, retryable: false, summary: 'The body is not valid JSON.' },
  UNAUTHORIZED: { httpStatus: 401, retryable: false, summary: 'Missing or unknown API key (`Authorization: Bearer <key>`).' },
  FORBIDDEN: { httpStatus: 403, retryable: false, summary: 'The API key is valid but may not use this endpoint (admin endpoints).' },
  NOT_FOUND: { httpStatus: 404, retryable: false, summary: 'No such notification, recipient or route for this tenant.' },
  METHOD_NOT_ALLOWED: {
    httpStatus: 405,
    retryable: false,
    summary: 'The route exists but refuses this method (the read-only queue board refuses every write).',
  },
  REQUEST_TIMEOUT: {
    httpStatus: 408,
    retryable: true,
    summary: "The request headers or body were not received within the server's limits (`HTTP_HEADERS_TIMEOUT_MS`, `HTTP_REQUEST_TIMEOUT_MS`).",
  },
  PAYLOAD_TOO_LARGE: { httpStatus: 413, retryable: false, summary: 'The body exceeds the configured limit.' },
  UNSUPPORTED_MEDIA_TYPE: { httpStatus: 415, retryable: false, summary: 'The body must be `application/json`.' },
  IDEMPOTENCY_CONFLICT: { httpStatus: 422, retryable: false, summary: 'The same (event id, recipient id) was accepted before with a different payload.' },
  NOT_CANCELABLE: {
    httpStatus: 409,
    retryable: false,
    summary: 'The notification can no longer be canceled: a provider call is in flight or unsettled (`sending`), or it ended; `details` names its state.',
  },
  RECIPIENT_NOT_FOUND: { httpStatus: 422, retryable: false, summary: 'The request names a stored recipient (`recipient.id` only) that does not exist.' },
  NO_DELIVERABLE_CHANNEL: { httpStatus: 422, retryable: false, summary: 'The recipient has no address on any channel of its preference order.' },
  UNSUBSCRIBE_LINK_INVALID: {
    httpStatus: 400,
    retryable: false,
    summary: 'A one-click unsubscribe link (`/u/:token`) that is tampered with, expired or signed by a secret no longer configured.',
  },
  TOO_MANY_ATTEMPTS: {
    httpStatus: 429,
    retryable: true,
    summary: 'Too many wrong admin keys from this address or with this key prefix; retry after `Retry-After` seconds.',
  },
  RATE_LIMITED: {
    httpStatus: 429,
    retryable: true,
    summary:
      "Over the tenant's intake rate: retry after `Retry-After` seconds (`RateLimit` and `RateLimit-Policy` tell the budget). In a batch, the items past the limit (docs/tenants.md).",
  },
  QUOTA_EXCEEDED: {
    httpStatus: 429,
    retryable: false,
    summary: "The tenant's daily quota is used up until the UTC day ends (`Retry-After` says when). In a batch, the items past the quota.",
  },
  HEADERS_TOO_LARGE: { httpStatus: 431, retryable: false, summary: "The request headers exceed node's header size limit." },
  BACKLOG_FULL: {
    httpStatus: 503,
    retryable: true,
    summary:
      'The lanes are behind: new work is refused until they catch up, reminders first, urgent last; retry after `Retry-After` seconds. In a batch, the items of the refused class (docs/backpressure.md).',
  },
  SHUTTING_DOWN: { httpStatus: 503, retryable: true, summary: 'The instance is draining for shutdown; retry (another instance will answer).' },
  DEPENDENCY_UNAVAILABLE: {
    httpStatus: 503,
    retryable: true,
    summary:
      'A store did not answer: Redis, or for the history lists (and an archived notification by id) PostgreSQL, or the history is disabled. Retry; for intake with the same event id: a notification is accepted at most once, and one cut short between its record and its job is completed by the retry or the intake sweeper.',
  },
  INTERNAL: { httpStatus: 500, retryable: true, summary: 'An unexpected fault; retry with the same event id (idempotent).' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface FieldIssue {
  field: string;
  reason: string;
}

const NOTIFY_ERROR = Symbol.for('notify.error');

/** The one base error of the platform: a catalog code, its HTTP status and retryability. */
export class NotifyError extends Error {
  readonly [NOTIFY_ERROR] = true;
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly retryable: boolean;
  readonly details: FieldIssue[] | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: FieldIssue[]; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NotifyError';
    this.code = code;
    this.httpStatus = ERROR_CATALOG[code].httpStatus;
    this.retryable = ERROR_CATALOG[code].retryable;
    this.details = options.details;
  }
}

export function isNotifyError(error: unknown): error is NotifyError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[NOTIFY_ERROR] === true;
}

export function validationError(details: FieldIssue[]): NotifyError {
  const summary = details.map((d) => `${d.field}: ${d.reason}`).join('; ');
  return new NotifyError('VALIDATION_FAILED', `invalid request: ${summary}`, { details });
}
