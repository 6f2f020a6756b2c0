import fc from 'fast-check';
import { quietRelease, resolveQuietRule, spreadFraction, type QuietRule } from './quiet-hours';
import { wallClock } from './zoned-time';

const at = (iso: string) => Date.parse(iso);
const rule = (timeZone: string, start: string, end: string): QuietRule => resolveQuietRule([{ timeZone, quietHours: { start, end } }]) as QuietRule;
/** An id whose spread fraction is 0: the release is the end of the window itself. */
const FIRST = '00000000aaaaaaaaaaaaaaaaaaaaaaaa';
const release = (now: string, r: QuietRule, spreadMs = 0, id = FIRST) => {
  const ms = quietRelease(at(now), r, spreadMs, id);
  return ms === undefined ? undefined : new Date(ms).toISOString();
};

describe('quiet hours across the 2026 daylight-saving changes', () => {
  const berlin = rule('Europe/Berlin', '22:00', '08:00');
  const newYork = rule('America/New_York', '22:00', '08:00');

  it('Europe/Berlin, 29 March (clocks forward at 02:00): the night is an hour shorter, the window ends at 08:00 CEST', () => {
    expect(release('2026-03-28T22:00:00Z', berlin)).toBe('2026-03-29T06:00:00.000Z');
    expect(release('2026-03-29T05:59:00Z', berlin)).toBe('2026-03-29T06:00:00.000Z');
    expect(release('2026-03-29T06:00:00Z', berlin)).toBeUndefined();
  });

  it('Europe/Berlin, 25 October (clocks back at 03:00): the night is an hour longer, the window ends at 08:00 CET', () => {
    expect(release('2026-10-24T21:00:00Z', berlin)).toBe('2026-10-25T07:00:00.000Z');
    expect(release('2026-10-25T06:30:00Z', berlin)).toBe('2026-10-25T07:00:00.000Z');
    expect(release('2026-10-25T07:00:00Z', berlin)).toBeUndefined();
  });

  it('America/New_York, 8 March and 1 November', () => {
    expect(release('2026-03-08T04:00:00Z', newYork)).toBe('2026-03-08T12:00:00.000Z');
    expect(release('2026-03-08T02:59:00Z', newYork)).toBeUndefined(); // 21:59 EST
    expect(release('2026-11-01T03:00:00Z', newYork)).toBe('2026-11-01T13:00:00.000Z');
  });

  it('Europe/Istanbul keeps +03:00 all year', () => {
    const istanbul = rule('Europe/Istanbul', '22:00', '08:00');
    expect(release('2026-03-29T20:30:00Z', istanbul)).toBe('2026-03-30T05:00:00.000Z');
    expect(release('2026-10-25T02:00:00Z', istanbul)).toBe('2026-10-25T05:00:00.000Z');
    expect(release('2026-07-01T09:00:00Z', istanbul)).toBeUndefined();
  });
});

describe('a window whose end falls in a skipped or a repeated hour', () => {
  it('an end inside the skipped hour is the end of the gap (03:00 CEST, 03:00 EDT)', () => {
    expect(release('2026-03-28T22:00:00Z', rule('Europe/Berlin', '22:00', '02:30'))).toBe('2026-03-29T01:00:00.000Z');
    expect(release('2026-03-08T04:00:00Z', rule('America/New_York', '23:00', '02:30'))).toBe('2026-03-08T07:00:00.000Z');
  });

  it('an end inside the repeated hour is its first occurrence; during the repeat the clock is quiet again until the second', () => {
    const berlin = rule('Europe/Berlin', '22:00', '02:30');
    expect(release('2026-10-24T21:00:00Z', berlin)).toBe('2026-10-25T00:30:00.000Z');
    expect(release('2026-10-25T00:45:00Z', berlin)).toBeUndefined(); // 02:45 CEST
    expect(release('2026-10-25T01:10:00Z', berlin)).toBe('2026-10-25T01:30:00.000Z'); // 02:10 CET
    const newYork = rule('America/New_York', '22:00', '01:30');
    expect(release('2026-11-01T03:00:00Z', newYork)).toBe('2026-11-01T05:30:00.000Z');
    expect(release('2026-11-01T06:10:00Z', newYork)).toBe('2026-11-01T06:30:00.000Z'); // 01:10 EST
  });
});

describe('windows', () => {
  const berlin = rule('Europe/Berlin', '22:00', '08:00');

  it('crossing midnight: before midnight the end is the next day, after midnight the same day', () => {
    expect(release('2026-06-10T21:30:00Z', berlin)).toBe('2026-06-11T06:00:00.000Z'); // 23:30 CEST
    expect(release('2026-06-11T01:00:00Z', berlin)).toBe('2026-06-11T06:00:00.000Z'); // 03:00 CEST
    expect(release('2026-06-10T19:59:00Z', berlin)).toBeUndefined(); // 21:59
    expect(release('2026-06-10T20:00:00Z', berlin)).toBe('2026-06-11T06:00:00.000Z'); // 22:00: inside
  });

  it('within one day: 09:00 to 17:00', () => {
    const day = rule('Europe/Istanbul', '09:00', '17:00');
    expect(release('2026-06-10T09:00:00Z', day)).toBe('2026-06-10T14:00:00.000Z'); // 12:00
    expect(release('2026-06-10T05:59:00Z', day)).toBeUndefined(); // 08:59
    expect(release('2026-06-10T14:00:00Z', day)).toBeUndefined(); // 17:00: the end is outside
  });

  it('a window but no zone anywhere is read in UTC; no window is no rule', () => {
    expect(resolveQuietRule([undefined, { quietHours: { start: '01:00', end: '02:00' } }])).toEqual({ timeZone: 'UTC', start: 60, end: 120 });
    expect(resolveQuietRule([{ timeZone: 'Europe/Berlin' }, undefined])).toBeUndefined();
  });

  it('each field from the first source that sets it: request, profile, tenant', () => {
    const request = { timeZone: 'America/New_York' };
    const profile = { timeZone: 'Europe/Berlin', quietHours: { start: '21:00', end: '07:00' } };
    const tenant = { timeZone: 'Europe/Istanbul', quietHours: { start: '23:00', end: '06:00' } };
    expect(resolveQuietRule([request, profile, tenant])).toEqual({ timeZone: 'America/New_York', start: 21 * 60, end: 7 * 60 });
    expect(resolveQuietRule([undefined, { timeZone: 'Europe/Berlin' }, tenant])).toEqual({ timeZone: 'Europe/Berlin', start: 23 * 60, end: 6 * 60 });
    expect(resolveQuietRule([{}, undefined, tenant])).toEqual({ timeZone: 'Europe/Istanbul', start: 23 * 60, end: 6 * 60 });
  });
});

describe('the spread', () => {
  const berlin = rule('Europe/Berlin', '22:00', '08:00');
  const HALF = '80000000aaaaaaaaaaaaaaaaaaaaaaaa';
  const now = at('2026-06-10T23:00:00Z');
  const end = at('2026-06-11T06:00:00Z');

  it('puts each notification at a point of the spread fixed by its id (a re-run computes the same)', () => {
    expect(quietRelease(now, berlin, 30 * 60_000, HALF)).toBe(end + 15 * 60_000);
    expect(quietRelease(now + 3_600_000, berlin, 30 * 60_000, HALF)).toBe(end + 15 * 60_000);
    expect(quietRelease(now, berlin, 30 * 60_000, FIRST)).toBe(end);
  });

  it('is never longer than the time until the next window opens', () => {
    const short = rule('Europe/Berlin', '08:10', '08:00'); // ten quiet-free minutes a day
    expect(quietRelease(now, short, 30 * 60_000, HALF)).toBe(end + 5 * 60_000);
  });

  it('spreads ids uniformly', () => {
    const ids = Array.from({ length: 4_000 }, (_, i) => (Math.imul(i + 1, 2_654_435_761) >>> 0).toString(16).padStart(8, '0') + 'a'.repeat(24));
    const quarters = [0, 0, 0, 0];
    for (const id of ids) quarters[Math.floor(spreadFraction(id) * 4)]! += 1;
    for (const q of quarters) expect(q).toBeGreaterThan(800);
  });
});

describe('properties', () => {
  const zones = ['Europe/Berlin', 'America/New_York', 'Europe/Istanbul', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
  const minute = fc.integer({ min: 0, max: 1_439 });
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const instant = fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2027-01-01T00:00:00Z') });
  const inside = (r: QuietRule, ms: number) => {
    const t = wallClock(ms, r.timeZone).minuteOfDay;
    return r.start > r.end ? t >= r.start || t < r.end : t >= r.start && t < r.end;
  };

  it('a release is later, outside the window, within a day, and the second before it is still quiet', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), minute, minute, instant, (timeZone, s, e, now) => {
        fc.pre(s !== e);
        const r = rule(timeZone, hhmm(s), hhmm(e));
        const released = quietRelease(now, r, 0, FIRST);
        if (released === undefined) return !inside(r, now);
        return released > now && !inside(r, released) && inside(r, released - 1_000) && released - now <= 25 * 3_600_000;
      }),
      { numRuns: 2_000 },
    );
  });
});
