import { CHANNELS, PRIORITIES, SKIP_REASONS, TERMINAL_STATUSES, type ErrorCode } from '@notify/core';
import { ID_PARAM_ERRORS, JSON_BODY_ERRORS, type Operation, type QueryParameter } from './operation';

const TIME_FORMATS =
  'ISO 8601 with a zone (`2026-11-30T09:00:00Z`, `2026-11-30T12:00:00+03:00`), a date (`2026-11-30`, midnight UTC), or milliseconds since the epoch';

/**
 * The history lists' filters (apps/api/src/routes/history-query.ts checks them); any other name
 * is a 400 naming it. Both lists take them, so each is written once as a component.
 */
const LIST_FILTERS: readonly QueryParameter[] = [
  { name: 'eventId', component: 'ListEventId', description: 'Only this event id.', schema: { type: 'string', maxLength: 200 } },
  {
    name: 'status',
    component: 'ListStatus',
    description:
      'Only this final status (the history holds finished notifications), or `scheduled`: the ones waiting for their sendAt, soonest first, from Redis (with or without the history; `since`/`until` then bound the sendAt; a page may be short with a nextCursor to go on).',
    schema: { type: 'string', enum: [...TERMINAL_STATUSES, 'scheduled'] },
  },
  { name: 'priority', component: 'ListPriority', description: 'Only this priority.', schema: { type: 'string', enum: [...PRIORITIES] } },
  {
    name: 'channel',
    component: 'ListChannel',
    description: 'Only notifications that made a call on this channel (any attempt, delivered or not).',
    schema: { type: 'string', enum: [...CHANNELS] },
  },
  {
    name: 'skipReason',
    component: 'ListSkipReason',
    description:
      'Only notifications with a channel skipped for this reason (`opted-out`: the recipient opted out of it; one whose every channel was closed before a call, at least one opted out, ended `opted-out`). Not with status=scheduled.',
    schema: { type: 'string', enum: [...SKIP_REASONS] },
  },
  { name: 'since', component: 'ListSince', description: `Accepted at or after this time: ${TIME_FORMATS}.`, schema: { type: 'string' } },
  {
    name: 'until',
    component: 'ListUntil',
    description: `Accepted before this time (exclusive), later than since: ${TIME_FORMATS}.`,
    schema: { type: 'string' },
  },
  {
    name: 'limit',
    component: 'ListLimit',
    description: 'Items per page: 1 to HISTORY_MAX_LIST_LIMIT (default 100); default 50 or that maximum if lower.',
    schema: { type: 'integer', minimum: 1 },
  },
  {
    name: 'cursor',
    component: 'ListCursor',
    description: 'The `nextCursor` of the previous page (opaque); pages stay stable while newer notifications arrive.',
    schema: { type: 'string' },
  },
];
const LIST_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'DEPENDENCY_UNAVAILABLE', 'INTERNAL'];
const LIST_NOTE =
  ' Newest first (by acceptance time), this tenant only, from the history (PostgreSQL): a notification is listed once it is finished and archived; one in flight is read by id. ' +
  'A bad filter, time, cursor or a limit over the maximum is a 400 naming the field; with the history disabled or PostgreSQL down, 503 DEPENDENCY_UNAVAILABLE. See docs/history.md.';

const INTAKE_ERRORS: ErrorCode[] = [...JSON_BODY_ERRORS, 'SHUTTING_DOWN', 'DEPENDENCY_UNAVAILABLE', 'INTERNAL'];

/** Intake, status and history of notifications, and the recipients' stored profiles. */
export const NOTIFICATION_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1/notifications',
    tag: 'notifications',
    auth: 'tenant',
    body: 'NotificationRequest',
    summary: 'Accept one notification',
    description:
      "A 202 means the notification and its first job are durably in Redis. Unknown fields are refused. Over the tenant's rate or daily quota (docs/tenants.md): 429 with Retry-After; a repeat of an accepted notification is still its 200 duplicate. While the lanes are behind (docs/backpressure.md): 503 BACKLOG_FULL with Retry-After, reminders first, urgent last; a `sendAt` ahead is still taken.",
    ok: {
      202: { description: 'Accepted.', schema: 'Accepted', headers: { Location: '/v1/notifications/{id}' } },
      200: { description: 'Duplicate: the same (event id, recipient id) with the same payload was accepted before.', schema: 'Accepted' },
    },
    tenantLimited: true,
    errors: [...INTAKE_ERRORS, 'IDEMPOTENCY_CONFLICT', 'RECIPIENT_NOT_FOUND', 'NO_DELIVERABLE_CHANNEL', 'RATE_LIMITED', 'QUOTA_EXCEEDED', 'BACKLOG_FULL'],
  },
  {
    method: 'post',
    path: '/v1/notifications/batch',
    tag: 'notifications',
    auth: 'tenant',
    body: 'BatchRequest',
    summary: 'Accept up to 1,000 notifications',
    description:
      "Each item is judged like a single POST; item errors name `notifications.<index>.<field>`. The valid items take the tenant's limits at once: the first ones they allow are accepted, each of the rest answers 429 RATE_LIMITED or QUOTA_EXCEEDED in its result (docs/tenants.md). While the lanes are behind, the items of the refused class answer 503 BACKLOG_FULL in their results and the answer carries Retry-After (docs/backpressure.md).",
    ok: { 200: { description: 'Per-item results in request order.', schema: 'BatchResult' } },
    tenantLimited: true,
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
    method: 'delete',
    path: '/v1/notifications/{id}',
    tag: 'notifications',
    auth: 'tenant',
    summary: 'Cancel one notification',
    description:
      'Canceled while no provider call is in flight and it has not ended (accepted, scheduled, waiting between cascade steps or for quiet hours), decided atomically with any call a worker would start: after a 200 no provider receives it. ' +
      "409 NOT_CANCELABLE names the state in `details` (`sending`: a call in flight, or one whose outcome is unknown; or its final status). Unknown or another tenant's: 404. See docs/scheduling.md.",
    ok: { 200: { description: 'Canceled (a repeated cancel answers the same).', schema: 'Canceled' } },
    errors: [...ID_PARAM_ERRORS, 'NOT_CANCELABLE', 'SHUTTING_DOWN', 'DEPENDENCY_UNAVAILABLE'],
  },
  {
    method: 'delete',
    path: '/v1/notifications',
    tag: 'notifications',
    auth: 'tenant',
    summary: 'Cancel every recipient of one event',
    description:
      'Each notification of (this tenant, eventId) still in Redis is canceled as DELETE /v1/notifications/{id} would; the answer counts them. `eventId` is required and the only field.',
    query: [{ name: 'eventId', description: 'The event whose notifications to cancel (required).', schema: { type: 'string', maxLength: 200 } }],
    ok: { 200: { description: 'Counts: canceled, not cancelable by state, not found.', schema: 'EventCancelResult' } },
    errors: ['VALIDATION_FAILED', 'SHUTTING_DOWN', 'DEPENDENCY_UNAVAILABLE', 'INTERNAL'],
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
];
