import { z } from 'zod';

/** Production keys: long enough that guessing is hopeless (a 32-character random key is ~190 bits). */
export const PRODUCTION_KEY_LENGTH = 32;

/**
 * Production keys and secrets use at least this many different characters: a random 32-character
 * key has ~25 (a hex one ~14), while `aaaa…` or `abab…` has 1 or 2 and is guessed at once.
 */
export const PRODUCTION_KEY_VARIETY = 8;

export interface KeyEntry {
  key: string;
  tenant: string;
}

/**
 * `API_KEYS=key1:tenant-a,key2:tenant-b`: each key belongs to one tenant. Keys and tenants are
 * trimmed, so `K:a, K :b` is one key twice. Messages name a pair by its position, never by any
 * part of its key.
 */
export const apiKeysEnv = z.string().transform((text, ctx) => {
  const result: KeyEntry[] = [];
  const seen = new Map<string, number>();
  const pairs = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (pairs.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'must list at least one key:tenant pair' });
    return z.NEVER;
  }
  pairs.forEach((pair, index) => {
    const position = index + 1;
    const [key, tenant, ...rest] = pair.split(':').map((part) => part.trim());
    if (!key || !tenant || rest.length > 0 || key.length < 16 || !/^[A-Za-z0-9._-]+$/.test(tenant)) {
      ctx.addIssue({ code: 'custom', message: `pair ${position} must be <key of 16+ characters>:<tenant>` });
      return;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      // One key, two tenants: the lookup would silently pick one. Refused in every mode.
      ctx.addIssue({ code: 'custom', message: `pairs ${first} and ${position} use the same key (each key belongs to one tenant)` });
      return;
    }
    seen.set(key, position);
    result.push({ key, tenant });
  });
  return result;
});

export interface KeyRulesInput {
  production: boolean;
  /** undefined: unset; null: set but not readable (its own issue is already reported). */
  apiKeys: readonly KeyEntry[] | undefined | null;
  adminKey: string | undefined | null;
  eventSecrets: ReadonlyMap<string, string> | undefined | null;
}

export type KeyVariable = 'API_KEYS' | 'ADMIN_API_KEY' | 'PROVIDER_EVENT_SECRETS';

/** What is wrong with a production key, without any part of it; undefined: nothing. */
function weakness(key: string): string | undefined {
  if (key.length < PRODUCTION_KEY_LENGTH) return `is shorter than ${PRODUCTION_KEY_LENGTH} characters (production)`;
  if (new Set(key).size < PRODUCTION_KEY_VARIETY)
    return `uses fewer than ${PRODUCTION_KEY_VARIETY} different characters: too easy to guess (production; use a random key)`;
  return undefined;
}

/**
 * The rules between the keys. Every mode: the admin key is no tenant's key. Production: tenant
 * and admin keys set explicitly (the development defaults are public), every key and provider
 * event secret long and varied, and no secret shared with a key or another provider: one
 * provider's secret must not open another's events, nor a tenant's or the admin's doors.
 */
export function keyRuleIssues(input: KeyRulesInput, devAdminKey: string): { path: KeyVariable; message: string }[] {
  const issues: { path: KeyVariable; message: string }[] = [];
  const issue = (path: KeyVariable, message: string) => issues.push({ path, message });
  const { production } = input;
  const tenants = input.apiKeys ?? [];
  const secrets = [...(input.eventSecrets ?? new Map<string, string>())];
  if (production && input.apiKeys === undefined) issue('API_KEYS', 'must be set when NODE_ENV=production (the development key is public)');
  if (production && input.adminKey === undefined) issue('ADMIN_API_KEY', 'must be set when NODE_ENV=production (the development admin key is public)');
  if (production) {
    tenants.forEach(({ key }, i) => {
      const weak = weakness(key);
      if (weak) issue('API_KEYS', `the key of pair ${i + 1} ${weak}`);
    });
    const adminWeak = typeof input.adminKey === 'string' ? weakness(input.adminKey) : undefined;
    if (adminWeak) issue('ADMIN_API_KEY', adminWeak);
    secrets.forEach(([name, secret], i) => {
      const weak = weakness(secret);
      if (weak) issue('PROVIDER_EVENT_SECRETS', `the secret of provider '${name}' ${weak}`);
      const tenant = tenants.findIndex(({ key }) => key === secret);
      if (tenant >= 0) issue('PROVIDER_EVENT_SECRETS', `the secret of provider '${name}' equals the key of API_KEYS pair ${tenant + 1}`);
      if (secret === input.adminKey) issue('PROVIDER_EVENT_SECRETS', `the secret of provider '${name}' equals ADMIN_API_KEY`);
      const twin = secrets.findIndex(([, other], j) => j > i && other === secret);
      if (twin >= 0) issue('PROVIDER_EVENT_SECRETS', `providers '${name}' and '${secrets[twin]![0]}' share one secret (each provider needs its own)`);
    });
  }
  if (input.adminKey !== null) {
    const admin = input.adminKey ?? devAdminKey;
    const clash = tenants.findIndex(({ key }) => key === admin);
    if (clash >= 0) issue('ADMIN_API_KEY', `must differ from every tenant key (it equals the key of API_KEYS pair ${clash + 1})`);
  }
  return issues;
}
