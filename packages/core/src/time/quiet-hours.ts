import { z } from 'zod';
import { instantOfWallTime, isKnownTimeZone, nextDay, wallClock } from './zoned-time';

const MINUTES_PER_DAY = 1_440;

export const timeZoneSchema = z
  .string()
  .max(64, 'must be at most 64 characters')
  .refine(isKnownTimeZone, 'must be an IANA time zone name such as Europe/Berlin or America/New_York');

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM, 00:00 to 23:59');

/** A daily window of local time; `start` after `end` crosses midnight (22:00 to 08:00). */
export const quietHoursSchema = z
  .strictObject({ start: timeOfDay, end: timeOfDay })
  .refine((q) => q.start !== q.end, { path: ['end'], message: 'must differ from start (a window of no length, or of the whole day)' });

export type QuietHours = z.infer<typeof quietHoursSchema>;

/** Where quiet hours may be set: the request's recipient, the stored profile, the tenant's settings. */
export interface QuietSettings {
  timeZone?: string | undefined;
  quietHours?: QuietHours | undefined;
}

/** The quiet hours a notification respects, decided at intake: its zone and window in minutes of the local day. */
export interface QuietRule {
  timeZone: string;
  start: number;
  end: number;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The rule from the first source that sets each field, in precedence order (request, profile,
 * tenant): a profile with only a time zone keeps the tenant's window in the recipient's zone.
 * No window anywhere: none. A window but no zone anywhere: UTC.
 */
export function resolveQuietRule(sources: readonly (QuietSettings | undefined)[]): QuietRule | undefined {
  const quietHours = sources.find((s) => s?.quietHours !== undefined)?.quietHours;
  if (!quietHours) return undefined;
  const timeZone = sources.find((s) => s?.timeZone !== undefined)?.timeZone ?? 'UTC';
  return { timeZone, start: minutesOf(quietHours.start), end: minutesOf(quietHours.end) };
}

/** Where in [0, 1) the notification's release falls within the spread: from its id, so a re-run computes the same. */
export function spreadFraction(id: string): number {
  const head = Number.parseInt(id.slice(0, 8), 16);
  return Number.isFinite(head) ? (head >>> 0) / 2 ** 32 : 0;
}

/**
 * When a step at `nowMs` may start under `rule`: undefined when the local time is outside the
 * window, else the first instant the window has ended (see zoned-time.ts for skipped and
 * repeated hours) plus this notification's share of `spreadMs` (never more than the time until
 * the next window opens, so a release never lands in the next night).
 */
export function quietRelease(nowMs: number, rule: QuietRule, spreadMs: number, id: string): number | undefined {
  const wall = wallClock(nowMs, rule.timeZone);
  const t = wall.minuteOfDay;
  const crossesMidnight = rule.start > rule.end;
  const inside = crossesMidnight ? t >= rule.start || t < rule.end : t >= rule.start && t < rule.end;
  if (!inside) return undefined;
  const endDay = crossesMidnight && t >= rule.start ? nextDay(wall) : wall;
  const windowEnd = instantOfWallTime(endDay, rule.end, rule.timeZone, nowMs);
  if (windowEnd <= nowMs) return undefined;
  const openMs = ((rule.start - rule.end + MINUTES_PER_DAY) % MINUTES_PER_DAY) * 60_000;
  return windowEnd + Math.floor(spreadFraction(id) * Math.min(spreadMs, openMs));
}
