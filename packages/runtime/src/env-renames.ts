/**
 * Variables that changed name or were replaced. A renamed variable is still read under its old
 * name for one release, with a warning naming the new one; a replaced one is refused with a
 * message naming what replaces it. Neither is ever silently ignored.
 */
export interface EnvRenames {
  /** Old name → new name: the old one is read (and warned about) when the new one is unset. */
  readonly renamed: Readonly<Record<string, string>>;
  /** Old name → what to set instead: refused at start. */
  readonly replaced: Readonly<Record<string, string>>;
}

export const NO_RENAMES: EnvRenames = { renamed: {}, replaced: {} };

export interface RenamedEnv {
  /** `env` with each old name's value under its new name. */
  env: Record<string, string | undefined>;
  /** One line per old name read: log once at start. */
  warnings: string[];
  /** `{ name, reason }` per refused variable, merged into the configuration error. */
  refusals: { name: string; reason: string }[];
}

const isSet = (value: string | undefined): value is string => value !== undefined;

export function applyEnvRenames(env: Readonly<Record<string, string | undefined>>, renames: EnvRenames): RenamedEnv {
  const out: Record<string, string | undefined> = { ...env };
  const warnings: string[] = [];
  const refusals: RenamedEnv['refusals'] = [];
  for (const [from, to] of Object.entries(renames.renamed)) {
    const old = env[from];
    if (!isSet(old)) continue;
    delete out[from];
    const current = env[to];
    if (isSet(current) && current !== old) {
      refusals.push({ name: from, reason: `renamed ${to}, which is set to another value: remove ${from}` });
      continue;
    }
    out[to] = old;
    warnings.push(`${from} is renamed ${to}: read under its old name for this release only; set ${to} instead`);
  }
  for (const [name, instead] of Object.entries(renames.replaced)) {
    if (isSet(env[name])) refusals.push({ name, reason: `no longer read: ${instead}` });
  }
  return { env: out, warnings, refusals };
}
