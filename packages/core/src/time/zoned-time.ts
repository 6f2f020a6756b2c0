/**
 * Wall-clock time in an IANA time zone with `Intl` alone: the engine's own tz database (the
 * one `Intl.DateTimeFormat` formats with), no library to keep in step with it. Two questions
 * only: what the clock on the wall shows at an instant, and the first instant at which it shows
 * a given time of a given day (a skipped time becomes the end of the gap; a repeated one, the
 * earliest occurrence after `after`).
 */

export interface WallClock {
  year: number;
  month: number;
  day: number;
  /** Minutes since local midnight, 0..1439. */
  minuteOfDay: number;
}

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building one costs far more than formatting with it (zones are a bounded, validated set). */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function fields(ms: number, timeZone: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(ms)) if (part.type !== 'literal') out[part.type] = Number(part.value);
  return out;
}

/** Whether `timeZone` is a zone this engine knows (an IANA name such as `Europe/Berlin`, or `UTC`). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timeZone)) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function wallClock(ms: number, timeZone: string): WallClock {
  const f = fields(ms, timeZone);
  return { year: f.year as number, month: f.month as number, day: f.day as number, minuteOfDay: ((f.hour as number) % 24) * 60 + (f.minute as number) };
}

/** The zone's offset from UTC at `ms` (local = UTC + offset), to the second. */
export function offsetAt(ms: number, timeZone: string): number {
  const f = fields(ms, timeZone);
  const local = Date.UTC(f.year as number, (f.month as number) - 1, f.day as number, (f.hour as number) % 24, f.minute as number, f.second as number);
  return local - Math.floor(ms / 1000) * 1000;
}

/** The calendar day after `date`. */
export function nextDay(date: LocalDate): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * The first instant after `after` at which the wall clock of `timeZone` shows `minuteOfDay` on
 * `date`. The offsets a day either side bound the candidates (a zone changes its offset at most
 * once in two days); a time inside a skipped hour (spring forward) is never shown, so the answer
 * is the instant the gap ends (the first at which the clock shows a later time that day).
 */
export function instantOfWallTime(date: LocalDate, minuteOfDay: number, timeZone: string, after = -Infinity): number {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, 0, minuteOfDay);
  const before = offsetAt(asUtc - DAY_MS, timeZone);
  const later = offsetAt(asUtc + DAY_MS, timeZone);
  const candidates = [...new Set([asUtc - before, asUtc - later])].sort((a, b) => a - b);
  const shown = candidates.filter((t) => asUtc - offsetAt(t, timeZone) === t);
  if (shown.length > 0) return shown.find((t) => t > after) ?? (shown.at(-1) as number);
  if (candidates.length < 2) return candidates[0] as number;
  return gapEnd(candidates[0] as number, candidates[1] as number, later, timeZone);
}

/** The first second in (lo, hi] whose offset is `offsetAfter` (a bisection: a gap is an hour or less). */
function gapEnd(lo: number, hi: number, offsetAfter: number, timeZone: string): number {
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (offsetAt(mid, timeZone) === offsetAfter) hi = mid;
    else lo = mid;
  }
  return hi;
}
