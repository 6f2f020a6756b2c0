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
  const local = new Date(ms + offsetAt(ms, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    minuteOfDay: local.getUTCHours() * 60 + local.getUTCMinutes(),
  };
}

/**
 * Zones change their offset only at whole quarter hours of UTC (every offset in use is a
 * multiple of 15 minutes, and so is every local transition time), so one offset holds for a
 * whole quarter: one format per zone and quarter, not per step (a format costs ~40 µs).
 */
const QUARTER_MS = 900_000;
const OFFSET_CACHE_SIZE = 4_096;
const offsets = new Map<string, number>();

/** The zone's offset from UTC at `ms` (local = UTC + offset). */
export function offsetAt(ms: number, timeZone: string): number {
  const quarter = Math.floor(ms / QUARTER_MS);
  const key = `${timeZone} ${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = formattedOffset(quarter * QUARTER_MS, timeZone);
    // Bounded: emptied when full (the quarters in use are a few per zone at any time).
    if (offsets.size >= OFFSET_CACHE_SIZE) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function formattedOffset(ms: number, timeZone: string): number {
  const f = fields(ms, timeZone);
  const local = Date.UTC(f.year as number, (f.month as number) - 1, f.day, (f.hour as number) % 24, f.minute, f.second);
  return local - ms;
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

/** The first quarter hour in (lo, hi] whose offset is `offsetAfter` (a bisection: a gap is an hour or less). */
function gapEnd(lo: number, hi: number, offsetAfter: number, timeZone: string): number {
  lo = Math.floor(lo / QUARTER_MS) * QUARTER_MS;
  hi = Math.ceil(hi / QUARTER_MS) * QUARTER_MS;
  while (hi - lo > QUARTER_MS) {
    const mid = Math.floor((lo + hi) / (2 * QUARTER_MS)) * QUARTER_MS;
    if (offsetAt(mid, timeZone) === offsetAfter) hi = mid;
    else lo = mid;
  }
  return hi;
}
