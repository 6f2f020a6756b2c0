import { UsageError } from './usage-error';

export type FlagKind = 'boolean' | 'value';
export type FlagSpecs = Readonly<Record<string, FlagKind>>;
export type ParsedFlags = ReadonlyMap<string, string | true>;

/**
 * Parses `--name value`, `--name=value` and boolean `--name`. Strict on purpose: an unknown
 * or repeated flag, a stray argument or a missing value is an error, because a model run
 * that silently ignored `--mulitplier 3` would print the seed's numbers as if they were x3.
 */
export function parseFlags(args: readonly string[], specs: FlagSpecs): ParsedFlags {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const kind = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (kind === undefined) {
      const known = Object.keys(specs)
        .map((n) => `--${n}`)
        .join(', ');
      throw new UsageError(`unknown flag '--${name}' (expected one of: ${known})`);
    }
    if (flags.has(name)) throw new UsageError(`flag '--${name}' given twice`);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`flag '--${name}' takes no value`);
      flags.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      const next = args[i + 1];
      // A following flag is not a value; "-5" is (and is then rejected as negative).
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        i += 1;
      }
    }
    if (value === undefined || value === '') throw new UsageError(`missing value for '--${name}'`);
    flags.set(name, value);
  }
  return flags;
}

/** A whole number in [min, max], written as plain digits (no sign, exponent or fraction). */
export function integerFlag(name: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}..${max}`;
    throw new UsageError(`--${name} must be an integer ${range}, got '${raw}'`);
  }
  return value;
}

/** A finite decimal number (e.g. 2, 0.5, 1.5e0). */
export function numberFlag(name: string, raw: string): number {
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value)) throw new UsageError(`--${name} must be a number, got '${raw}'`);
  return value;
}

/** One of a fixed list of words. */
export function choiceFlag<T extends string>(name: string, raw: string, choices: readonly T[]): T {
  const match = choices.find((c) => c === raw);
  if (match === undefined) throw new UsageError(`unknown ${name} '${raw}' (expected one of: ${choices.join(', ')})`);
  return match;
}
