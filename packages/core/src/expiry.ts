import { z } from 'zod';
import { validationError } from './errors';

/** RFC 3339 date-time with an explicit offset (`Z` or `±hh:mm`): a local time would depend on the server's zone. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;

/** The longest `ttlSeconds` (a year): anything longer is a unit mistake. */
export const MAX_TTL_SECONDS = 365 * 86_400;

/** `expiresAt` as the request carries it: checked for form here, against the clock at intake (expiresAtOf). */
export const expiresAtSchema = z
  .string()
  .refine(
    (text) => RFC3339.test(text) && Number.isFinite(Date.parse(text)),
    'must be an RFC 3339 date-time with an offset, such as 2026-11-30T09:00:00Z or 2026-11-30T12:00:00+03:00',
  );

export const ttlSecondsSchema = z
  .number()
  .int('must be a whole number of seconds')
  .positive('must be at least 1')
  .max(MAX_TTL_SECONDS, `must be at most ${MAX_TTL_SECONDS} (a year)`);

/**
 * When a notification expires (ms), or undefined for none: from `expiresAt`, or `ttlSeconds`
 * after `now`. A 400 names the field when both are given, when it is not after `now`, or when
 * it is not after `sendAtMs` (a notification that would expire before it may go).
 */
export function expiresAtOf(request: { expiresAt?: string; ttlSeconds?: number }, now: number, sendAtMs?: number): number | undefined {
  const { expiresAt, ttlSeconds } = request;
  if (expiresAt !== undefined && ttlSeconds !== undefined) {
    throw validationError([{ field: 'ttlSeconds', reason: 'give expiresAt or ttlSeconds, not both' }]);
  }
  if (expiresAt === undefined && ttlSeconds === undefined) return undefined;
  const field = expiresAt !== undefined ? 'expiresAt' : 'ttlSeconds';
  const at = expiresAt !== undefined ? Date.parse(expiresAt) : now + (ttlSeconds as number) * 1_000;
  if (at <= now) throw validationError([{ field, reason: 'is in the past: a notification must be able to go before it expires' }]);
  if (sendAtMs !== undefined && at <= sendAtMs) throw validationError([{ field, reason: 'must be after sendAt' }]);
  return at;
}
