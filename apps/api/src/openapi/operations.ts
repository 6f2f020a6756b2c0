import { CHANNELS, PRIORITIES, TERMINAL_STATUSES, type ErrorCode } from '@notify/core';
import type { SchemaName } from './components';

/**
 * The api's routes, once. The document is built from this table, and a test walks the
 * Express app and fails when a route is missing here (or listed here and not served).
 */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form: `{id}`, not `:id`. */
  path: string;
  tag: 'notifications' | 'recipients' | 'webhooks' | 'tracking' | 'operations';
  summary: string;
  description?: string;
  auth: 'tenant' | 'admin' | 'none';
  body?: SchemaName;
  /** Query parameters (all optional). */
  query?: readonly QueryParameter[];
  /** Answers outside the JSON error catalog (successes, redirects, HTML pages): status → schema or content type. */
  ok: Record<number, { description: string; schema?: SchemaName; contentType?: string; headers?: Record<string, string> }>;
  /** Catalog errors this route can answer with (401 is added for authenticated routes). */
  errors?: ErrorCode[];
  /** Answers outside the catalog (the tracking query's budget errors). */
  otherErrors?: Record<number, { description: string; schema: SchemaName }>;
}

export interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

const TIME_FORMATS =
  'ISO 8601 with a zone (`2026-11-30T09:00:00Z`, `2026-11-30T12:00:00+03:00`), a date (`2026-11-30`, midnight UTC), or milliseconds since the epoch';

/** The history lists' filters (apps/api/src/routes/history-query.ts checks them); any other name is a 400 naming it. */
const LIST_FILTERS: readonly QueryParameter[] = [
  { name: 'eventId', description: 'Only this event id.', schema: { type: 'string', maxLength: 200 } },
  {
    name: 'status',
    description: 'Only this final status (the history holds finished notifications).',
    schema: { type: 'string', enum: [...TERMINAL_STATUSES] },
  },
  { name: 'priority', description: 'Only this priority.', schema: { type: 'string', enum: [...PRIORITIES] } },
  {
    name: 'channel',
    description: 'Only notifications that made a call on this channel (any attempt, delivered or not).',
    schema: { type: 'string', enum: [...CHANNELS] },
  },
  { name: 'since', description: `Accepted at or after this time: ${TIME_FORMATS}.`, schema: { type: 'string' } },
  { name: 'until', description: `Accepted before this time (exclusive), later than since: ${TIME_FORMATS}.`, schema: { type: 'string' } },
  {
    name: 'limit',
    description: 'Items per page: 1 to HISTORY_MAX_LIST_LIMIT (default 100); default 50 or that maximum if lower.',
    schema: { type: 'integer', minimum: 1 },
  },
  {
    name: 'cursor',
    description: 'The `nextCursor` of the previous page (opaque); pages stay stable while newer notifications arrive.',
    schema: { type: 'string' },
  },
];
const LIST_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'DEPENDENCY_UNAVAILABLE', 'INTERNAL'];
const LIST_NOTE =
  ' Newest first (by acceptance time), this tenant only, from the history (PostgreSQL): a notification is listed once it is finished and archived; one in flight is read by id. ' +
  'A bad filter, time, cursor or a limit over the maximum is a 400 naming the field; with the history disabled or PostgreSQL down, 503 DEPENDENCY_UNAVAILABLE. See docs/history.md.';

const JSON_BODY_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const INTAKE_ERRORS: ErrorCode[] = [...JSON_BODY_ERRORS, 'SHUTTING_DOWN', 'DEPENDENCY_UNAVAILABLE', 'INTERNAL'];
const ID_PARAM_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'NOT_FOUND', 'INTERNAL'];

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1/notifications',
    tag: 'notifications',
    auth: 'tenant',
    body: 'NotificationRequest',
    summary: 'Accept one notification',
    description: 'A 202 means the notification and its first job are durably in Redis. Unknown fields are refused.',
    ok: {
      202: { description: 'Accepted.', schema: 'Accepted', headers: { Location: '/v1/notifications/{id}' } },
      200: { description: 'Duplicate: the same (event id, recipient id) with the same payload was accepted before.', schema: 'Accepted' },
    },
    errors: [...INTAKE_ERRORS, 'IDEMPOTENCY_CONFLICT', 'RECIPIENT_NOT_FOUND', 'NO_DELIVERABLE_CHANNEL'],
  },
  {
    method: 'post',
    path: '/v1/notifications/batch',
    tag: 'notifications',
    auth: 'tenant',
    body: 'BatchRequest',
    summary: 'Accept up to 1,000 notifications',
    description: 'Each item is judged like a single POST; item errors name `notifications.<index>.<field>`.',
    ok: { 200: { description: 'Per-item results in request order.', schema: 'BatchResult' } },
    errors: INTAKE_ERRORS,
  },
  {
    method: 'get',
    path: '/v1/notifications/{id}',
    tag: 'notifications',
    auth: 'tenant',
    summary: 'Status, attempts and skips of one notification',
    description:
      "From Redis while in flight, from the history once archived: the same shape. Unknown, another tenant's, or past the history's retention: 404. " +
      'An archived notification while PostgreSQL does not answer: 503.',
    ok: { 200: { description: 'The status record (this tenant only).', schema: 'NotificationView' } },
    errors: [...ID_PARAM_ERRORS, 'DEPENDENCY_UNAVAILABLE'],
  },
  {
    method: 'get',
    path: '/v1/notifications',
    tag: 'notifications',
    auth: 'tenant',
    summary: 'Search the finished notifications of this tenant (history)',
    description: `Filters combine with AND.${LIST_NOTE}`,
    query: [{ name: 'recipientId', description: 'Only this recipient id.', schema: { type: 'string', maxLength: 200 } }, ...LIST_FILTERS],
    ok: { 200: { description: 'One page, newest first; `nextCursor` when there is more.', schema: 'NotificationPage' } },
    errors: LIST_ERRORS,
  },
  {
    method: 'get',
    path: '/v1/recipients/{id}/notifications',
    tag: 'recipients',
    auth: 'tenant',
    summary: 'What was sent to one recipient id (history)',
    description: `Like GET /v1/notifications with recipientId = {id} (a stored profile is not needed; recipientId in the query is a 400).${LIST_NOTE}`,
    query: LIST_FILTERS,
    ok: { 200: { description: 'One page, newest first; `nextCursor` when there is more.', schema: 'NotificationPage' } },
    errors: LIST_ERRORS,
  },
  {
    method: 'put',
    path: '/v1/recipients/{id}',
    tag: 'recipients',
    auth: 'tenant',
    body: 'RecipientProfile',
    summary: 'Store or replace a recipient profile',
    description: 'Replacing a profile lifts its channel suppressions.',
    ok: { 201: { description: 'Created.', schema: 'Recipient' }, 200: { description: 'Replaced.', schema: 'Recipient' } },
    errors: [...JSON_BODY_ERRORS, 'INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/recipients/{id}',
    tag: 'recipients',
    auth: 'tenant',
    summary: 'Read a recipient profile',
    ok: { 200: { description: 'The profile.', schema: 'Recipient' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'delete',
    path: '/v1/recipients/{id}',
    tag: 'recipients',
    auth: 'tenant',
    summary: 'Delete a recipient profile',
    ok: { 204: { description: 'Deleted.' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/webhooks',
    tag: 'webhooks',
    auth: 'tenant',
    body: 'WebhookEndpointRequest',
    summary: 'Register a webhook endpoint',
    description:
      'Answers the signing secret (Standard Webhooks `whsec_<base64>`) once. A URL that is not http(s), carries credentials, or whose host is or resolves to a ' +
      'private, loopback, link-local or metadata address (unless WEBHOOK_ALLOWED_HOSTS allows it) is a 400 naming `url`, and so is one more endpoint than ' +
      'WEBHOOK_MAX_ENDPOINTS. See docs/webhooks.md.',
    ok: { 201: { description: 'Registered.', schema: 'WebhookEndpointCreated', headers: { Location: '/v1/webhooks/{id}' } } },
    errors: [...JSON_BODY_ERRORS, 'INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/webhooks',
    tag: 'webhooks',
    auth: 'tenant',
    summary: "This tenant's webhook endpoints (no secrets)",
    ok: { 200: { description: 'Oldest first.', schema: 'WebhookEndpointList' } },
    errors: ['INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'One webhook endpoint (no secret)',
    description: "A disabled endpoint says so (`disabled`, `disabledReason`). Unknown or another tenant's: 404.",
    ok: { 200: { description: 'The endpoint.', schema: 'WebhookEndpoint' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'delete',
    path: '/v1/webhooks/{id}',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Delete a webhook endpoint',
    description: 'Deliveries still queued for it are dropped.',
    ok: { 204: { description: 'Deleted.' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/rotate-secret',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Rotate the signing secret',
    description:
      'Answers the new secret once. For 24 h both the new and the previous secret sign every delivery (two `v1,` signatures in `webhook-signature`), so receivers can switch.',
    ok: { 200: { description: 'The endpoint with its new secret.', schema: 'WebhookEndpointCreated' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Recent delivery attempts of one endpoint',
    ok: { 200: { description: 'Newest first: event, status code, latency, time, error class.', schema: 'WebhookDeliveryList' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/deliveries/{eventId}/retry',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Send one event to this endpoint again, now',
    description: 'Found while its delivery job is kept: a week after it failed for good, a day after it was delivered; otherwise 404.',
    ok: { 202: { description: 'On its way.', schema: 'WebhookRetry' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'delete',
    path: '/v1/recipients/{id}/suppressions/{channel}',
    tag: 'recipients',
    auth: 'tenant',
    summary: "Lift a channel's suppression for a recipient",
    description:
      'A hard bounce, a complaint or a permanent error suppresses (recipient, channel) for SUPPRESSION_TTL_SECONDS; this lifts it now. 404 when none. See docs/provider-events.md.',
    ok: { 204: { description: 'Lifted.' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/providers/{provider}/events',
    tag: 'operations',
    auth: 'none',
    body: 'ProviderEvent',
    summary: 'Provider events in: receipts, bounces, complaints',
    description:
      'Authenticated per provider by its shared secret (PROVIDER_EVENT_SECRETS; `Authorization: Bearer <secret>`, or Basic with the secret as password), or for a status callback by its X-Twilio-Signature keyed with that secret; not a tenant key. ' +
      'SNS message signatures are verified (certificates from SNS_SIGNING_CERT_HOSTS only). An event changes only an attempt made by that provider on its channel. ' +
      'Takes the generic JSON shape, SNS-style notifications (also as text/plain) and HTTP SMS status callbacks (form-encoded MessageSid/MessageStatus). ' +
      'Idempotent by (provider, notification, event id). An unknown provider is a 404, a wrong secret a 401, a bad body a 400 naming the field. See docs/provider-events.md.',
    ok: {
      200: { description: 'applied, duplicate or ignored.', schema: 'ProviderEventResult' },
      202: {
        description:
          'unmatched: no notification this provider sent has that message id; refused: another provider made that attempt (acknowledged so the provider does not retry).',
        schema: 'ProviderEventResult',
      },
    },
    errors: ['VALIDATION_FAILED', 'MALFORMED_JSON', 'UNAUTHORIZED', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/tracking/{shipmentId}',
    tag: 'tracking',
    auth: 'tenant',
    summary: 'Tracking query under its 200 ms budget',
    description: 'A smaller `x-request-timeout-ms` (or `grpc-timeout`) header lowers the budget. See packages/budget-chain/README.md.',
    ok: { 200: { description: 'Delivery status, tariff, measurement and fee, with how the budget was spent.', schema: 'TrackingResponse' } },
    otherErrors: {
      400: { description: 'VALIDATION_FAILED (bad shipment id) or INVALID_DEADLINE_HEADER.', schema: 'TrackingError' },
      502: { description: 'DEPENDENCY_FAILED: a store answered an error; `step` names it.', schema: 'TrackingError' },
      503: {
        description:
          'OVERLOADED (with `reason` and Retry-After): shed before any work while the process could not keep the deadline; CANCELLED: the gateway is shutting down.',
        schema: 'TrackingError',
      },
      504: { description: 'DEADLINE_EXCEEDED: `step` names the step that ran out of time.', schema: 'TrackingError' },
    },
  },
  {
    method: 'get',
    path: '/admin/queues',
    tag: 'operations',
    auth: 'admin',
    summary: 'bull-board over the six lanes (read-only)',
    description:
      'An HTML application mounted here; its JSON API lives under /admin/queues/api (e.g. /admin/queues/api/queues). ' +
      'The admin key as a Bearer header, or a browser session from /admin/login. A browser without a session is redirected to the sign-in.',
    ok: { 200: { description: 'The board.', contentType: 'text/html' }, 303: { description: 'No session: to /admin/login (HTML requests).' } },
    errors: ['FORBIDDEN', 'METHOD_NOT_ALLOWED'],
  },
  {
    method: 'get',
    path: '/admin/login',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign-in form for the admin console',
    ok: { 200: { description: 'The form.', contentType: 'text/html' }, 303: { description: 'Already signed in: to /admin/queues.' } },
  },
  {
    method: 'post',
    path: '/admin/login',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign in with the admin key (form post)',
    description: 'Constant-time key check, throttled per client address; the session is an HttpOnly, SameSite=Strict cookie.',
    ok: {
      303: { description: 'Signed in: to /admin/queues.' },
      401: { description: 'Not the admin key (the form again).', contentType: 'text/html' },
      403: { description: 'The form expired or came from another site.', contentType: 'text/html' },
      429: { description: 'Too many failed sign-ins from this address (Retry-After).', contentType: 'text/html' },
    },
  },
  {
    method: 'get',
    path: '/admin/logout',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign-out page',
    ok: { 200: { description: 'The sign-out form.', contentType: 'text/html' }, 303: { description: 'No session: to /admin/login.' } },
  },
  {
    method: 'post',
    path: '/admin/logout',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign out (form post with the CSRF token)',
    ok: { 303: { description: 'Signed out: to /admin/login.' }, 403: { description: "Not from this site's sign-out page.", contentType: 'text/html' } },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'operations',
    auth: 'none',
    summary: 'The process is alive',
    ok: { 200: { description: 'Alive.', schema: 'Health' } },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'operations',
    auth: 'none',
    summary: 'Redis answers, the start-up warm-up is done and the instance is not draining',
    ok: { 200: { description: 'Ready.', schema: 'Ready' } },
    otherErrors: { 503: { description: 'Draining, warming up (tracking query path, TRACKING_WARMUP_*), or Redis does not answer.', schema: 'Ready' } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'operations',
    auth: 'none',
    summary: 'This document',
    ok: { 200: { description: 'OpenAPI 3.1.', contentType: 'application/json' } },
  },
  {
    method: 'get',
    path: '/docs',
    tag: 'operations',
    auth: 'none',
    summary: 'This document in a browser (Swagger UI, served locally)',
    ok: { 200: { description: 'HTML.', contentType: 'text/html' } },
  },
];
