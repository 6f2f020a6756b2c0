import { CHANNELS, ID_PATTERN, LIMITS, PRIORITIES, SKIP_REASONS, TERMINAL_STATUSES, validationError, type FieldIssue } from '@notify/core';
import type { ListFilter } from '@notify/history';

/** The list endpoints' query fields; any other is a 400 naming it (a typo must not widen the search). */
export const LIST_QUERY_FIELDS = ['recipientId', 'eventId', 'status', 'priority', 'channel', 'skipReason', 'since', 'until', 'limit', 'cursor'] as const;
type Field = (typeof LIST_QUERY_FIELDS)[number];

/** HISTORY_MAX_LIST_LIMIT's default (the config schema's), for routers built without one (tests). */
export const DEFAULT_MAX_LIST_LIMIT = 100;

/** A page holds this many items unless `limit` says otherwise (or the maximum is lower). */
export const DEFAULT_LIST_LIMIT = 50;

/** The statuses a list can filter on: the finished ones (the history) and `scheduled` (Redis's due indexes). */
const LISTED_STATUSES = [...TERMINAL_STATUSES, 'scheduled'] as const;

const EPOCH_MS = /^\d{1,15}$/;
/** ISO 8601 with an explicit offset (or a bare date, midnight UTC): a local time would depend on the server's zone. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
/** ECMAScript's range of time values. */
const MAX_TIME_MS = 8.64e15;
const TIME_RULE =
  'must be ISO 8601 with a time zone (2026-11-30T09:00:00Z, 2026-11-30T12:00:00+03:00) or a date (2026-11-30, midnight UTC), or milliseconds since the epoch';

function parseTime(text: string): number | undefined {
  if (EPOCH_MS.test(text)) {
    const ms = Number(text);
    return ms <= MAX_TIME_MS ? ms : undefined;
  }
  const iso = ISO.exec(text);
  if (!iso) return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March: the calendar date must exist as written.
  const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  return ms;
}

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const ID_RULE = (max: number) => `must be 1-${max} characters of letters, digits and . _ : @ - /`;
const validId = (text: string, max: number) => text.length > 0 && text.length <= max && ID_PATTERN.test(text);

/**
 * The query string of GET /v1/notifications (and, with `recipientId` from the path, of
 * GET /v1/recipients/{id}/notifications) as a history filter. Every problem is reported at
 * once, one detail per field, as a VALIDATION_FAILED (400). The cursor's own check is the
 * store's (it alone knows its encoding): a bad one is a 400 naming `cursor` from there.
 */
export function parseListQuery(query: Record<string, unknown>, options: { maxLimit: number; recipientId?: string }): ListFilter {
  const issues: FieldIssue[] = [];
  const values = new Map<Field, string>();
  for (const [name, raw] of Object.entries(query)) {
    if (!(LIST_QUERY_FIELDS as readonly string[]).includes(name)) {
      issues.push({ field: name.slice(0, 100), reason: `is not a filter of this list (known: ${LIST_QUERY_FIELDS.join(', ')})` });
    } else if (name === 'recipientId' && options.recipientId !== undefined) {
      issues.push({ field: name, reason: "is the path's {id} on this endpoint; leave it out of the query" });
    } else if (typeof raw !== 'string') {
      issues.push({ field: name, reason: 'must be given once' });
    } else {
      values.set(name as Field, raw);
    }
  }
  const filter: ListFilter = { limit: Math.min(DEFAULT_LIST_LIMIT, options.maxLimit) };
  const text = (field: Field, check: (v: string) => boolean, reason: string): string | undefined => {
    const value = values.get(field);
    if (value === undefined) return undefined;
    if (check(value)) return value;
    issues.push({ field, reason });
    return undefined;
  };

  const recipientId = options.recipientId ?? text('recipientId', (v) => validId(v, LIMITS.recipientIdLength), ID_RULE(LIMITS.recipientIdLength));
  if (recipientId !== undefined) filter.recipientId = recipientId;
  const eventId = text('eventId', (v) => validId(v, LIMITS.eventIdLength), ID_RULE(LIMITS.eventIdLength));
  if (eventId !== undefined) filter.eventId = eventId;
  const status = text(
    'status',
    (v) => (LISTED_STATUSES as readonly string[]).includes(v),
    `${oneOf(LISTED_STATUSES)} (the history holds finished notifications, Redis the scheduled ones; read one in flight by id)`,
  );
  if (status !== undefined) filter.status = status as ListFilter['status'];
  const priority = text('priority', (v) => (PRIORITIES as readonly string[]).includes(v), oneOf(PRIORITIES));
  if (priority !== undefined) filter.priority = priority as ListFilter['priority'];
  const channel = text('channel', (v) => (CHANNELS as readonly string[]).includes(v), oneOf(CHANNELS));
  if (channel !== undefined) filter.channel = channel as ListFilter['channel'];
  const skipReason = text('skipReason', (v) => (SKIP_REASONS as readonly string[]).includes(v), oneOf(SKIP_REASONS));
  if (skipReason !== undefined) filter.skipReason = skipReason as ListFilter['skipReason'];
  if (filter.skipReason !== undefined && filter.status === 'scheduled') {
    issues.push({ field: 'skipReason', reason: 'a scheduled notification has made no step yet: leave out status=scheduled' });
  }
  const since = text('since', (v) => parseTime(v) !== undefined, TIME_RULE);
  if (since !== undefined) filter.since = parseTime(since);
  const until = text('until', (v) => parseTime(v) !== undefined, TIME_RULE);
  if (until !== undefined) filter.until = parseTime(until);
  if (filter.since !== undefined && filter.until !== undefined && filter.until <= filter.since) {
    issues.push({ field: 'until', reason: 'must be later than since (since is inclusive, until exclusive)' });
  }
  const limit = text(
    'limit',
    (v) => /^\d{1,7}$/.test(v) && Number(v) >= 1 && Number(v) <= options.maxLimit,
    `must be a whole number from 1 to ${options.maxLimit} (HISTORY_MAX_LIST_LIMIT)`,
  );
  if (limit !== undefined) filter.limit = Number(limit);
  const cursor = text('cursor', (v) => v.length > 0 && v.length <= 200, 'must be a nextCursor of a previous page');
  if (cursor !== undefined) filter.cursor = cursor;

  if (issues.length > 0) throw validationError(issues);
  return filter;
}

/** The query of DELETE /v1/notifications: exactly `eventId` (a cancel must never widen to more than one event). */
export function parseEventIdQuery(query: Record<string, unknown>): string {
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(query))
    if (name !== 'eventId') issues.push({ field: name.slice(0, 100), reason: 'is not a field of a cancel by event (known: eventId)' });
  const eventId = query.eventId;
  if (typeof eventId !== 'string' || !validId(eventId, LIMITS.eventIdLength))
    issues.push({ field: 'eventId', reason: `is required once and ${ID_RULE(LIMITS.eventIdLength)}` });
  if (issues.length > 0) throw validationError(issues);
  return eventId as string;
}
