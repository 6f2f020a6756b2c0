import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  resolveTenantLimits,
  tenantSettingsFileSchema,
  type TenantLimitPolicy,
  type TenantLimitsSettings,
  type TenantSettings,
  type TenantSettingsFile,
} from '@notify/core';

/** The per-tenant settings file, read by the api (intake decides what applies to a notification), and the limits' defaults. */
export const tenantsEnvShape = {
  TENANTS_FILE: z.string().min(1).optional().meta({
    description:
      'A JSON file of per-tenant settings: `{ "<tenant>": { "timeZone": "Europe/Berlin", "quietHours": { "start": "22:00", "end": "08:00" }, "limits": { "rate": { "perSecond": 100, "burst": 200 }, "dailyQuota": 1000000 } } }`. A tenant\'s `timeZone` and `quietHours` apply to its recipients whose request and profile set none ([quiet hours](quiet-hours.md)); its `limits` override the `TENANT_*` defaults, `null` turning one off ([tenants](tenants.md)); its `weight` (1–1000, default 1) is its share of each lane against other tenants with backlog there ([fair share](tenants.md#fair-share)). Validated at start; an error names the tenant and the field.',
    defaultText: 'none (no tenant defaults)',
  }),
  TENANT_RATE_PER_SECOND: z.coerce.number().positive().max(1_000_000).optional().meta({
    description:
      "Every tenant's intake rate, notifications a second on average (a batch item counts one), unless its `limits.rate` in TENANTS_FILE says otherwise; over it: 429 RATE_LIMITED ([tenants](tenants.md)).",
    defaultText: 'none (no rate limit)',
  }),
  TENANT_RATE_BURST: z.coerce.number().int().min(1).optional().meta({
    description: 'The burst of the default rate: notifications accepted at once from a full bucket.',
    defaultText: '`ceil(TENANT_RATE_PER_SECOND)`',
  }),
  TENANT_DAILY_QUOTA: z.coerce.number().int().min(1).optional().meta({
    description: "Every tenant's notifications per UTC day, unless its `limits.dailyQuota` says otherwise; past it: 429 QUOTA_EXCEEDED until the UTC day ends.",
    defaultText: 'none (no quota)',
  }),
};

/** TENANTS_FILE could not be read or is invalid: the message names the file's field. */
export class TenantsFileError extends Error {
  override readonly name = 'TenantsFileError';
}

/** Validates a tenants file's text; `source` names it in errors. */
export function parseTenantsFile(text: string, source = 'TENANTS_FILE'): TenantSettingsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TenantsFileError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = tenantSettingsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(the file)'}: ${issue.message}`);
    throw new TenantsFileError(`${source} is invalid: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** Reads TENANTS_FILE (absent: no tenant has settings) into a map by tenant name. */
export function readTenantsFile(path: string | undefined): ReadonlyMap<string, TenantSettings> {
  if (path === undefined) return new Map();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TenantsFileError(`TENANTS_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return new Map(Object.entries(parseTenantsFile(text)));
}

/** The TENANT_* defaults as a tenant's `limits` would say them. */
export function toDefaultTenantLimits(c: {
  TENANT_RATE_PER_SECOND?: number | undefined;
  TENANT_RATE_BURST?: number | undefined;
  TENANT_DAILY_QUOTA?: number | undefined;
}): TenantLimitsSettings {
  return {
    ...(c.TENANT_RATE_PER_SECOND !== undefined
      ? { rate: { perSecond: c.TENANT_RATE_PER_SECOND, ...(c.TENANT_RATE_BURST !== undefined ? { burst: c.TENANT_RATE_BURST } : {}) } }
      : {}),
    ...(c.TENANT_DAILY_QUOTA !== undefined ? { dailyQuota: c.TENANT_DAILY_QUOTA } : {}),
  };
}

/**
 * Each tenant's limits, resolved once per tenant (own over defaults) and kept: the lookup runs
 * on every intake request. Undefined: the tenant has none.
 */
export function tenantLimitLookup(
  settings: ReadonlyMap<string, TenantSettings>,
  defaults: TenantLimitsSettings,
): (tenant: string) => TenantLimitPolicy | undefined {
  const resolved = new Map<string, TenantLimitPolicy | undefined>();
  for (const [tenant, own] of settings) resolved.set(tenant, resolveTenantLimits(own.limits, defaults));
  const fallback = resolveTenantLimits(undefined, defaults);
  return (tenant) => (resolved.has(tenant) ? resolved.get(tenant) : fallback);
}
