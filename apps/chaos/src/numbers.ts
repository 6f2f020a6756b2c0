import { usageError } from '@notify/platform-kit';

/** A whole number of milliseconds in [min, max], written as plain digits (no 1e3, no 10s). */
export function parseMs(flag: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined) throw usageError(`missing --${flag} <milliseconds> (${min}..${max})`);
  if (!/^\d+$/.test(raw)) throw usageError(`--${flag} must be a whole number of milliseconds, got '${raw}'`);
  const value = Number(raw);
  if (value < min || value > max) throw usageError(`--${flag} must be between ${min} and ${max} ms, got ${value}`);
  return value;
}

/** A rate in (0, 1], written as a decimal (0.3, .3, 1). */
export function parseRate(flag: string, raw: string | undefined): number {
  if (raw === undefined) throw usageError(`missing --${flag} <rate> (a number in (0, 1], e.g. 0.3)`);
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(raw)) throw usageError(`--${flag} must be a number in (0, 1], got '${raw}'`);
  const value = Number(raw);
  if (!(value > 0 && value <= 1)) throw usageError(`--${flag} must be in (0, 1], got ${value}`);
  return value;
}

/** A whole number in [min, max]. */
export function parseCount(flag: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined) throw usageError(`missing --${flag} <number> (${min}..${max})`);
  if (!/^\d+$/.test(raw)) throw usageError(`--${flag} must be a whole number, got '${raw}'`);
  const value = Number(raw);
  if (value < min || value > max) throw usageError(`--${flag} must be between ${min} and ${max}, got ${value}`);
  return value;
}
