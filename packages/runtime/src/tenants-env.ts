import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { tenantSettingsFileSchema, type TenantSettings, type TenantSettingsFile } from '@notify/core';

/** The per-tenant settings file, read by the api (intake decides what applies to a notification). */
export const tenantsEnvShape = {
  TENANTS_FILE: z.string().min(1).optional().meta({
    description:
      'A JSON file of per-tenant settings: `{ "<tenant>": { "timeZone": "Europe/Berlin", "quietHours": { "start": "22:00", "end": "08:00" } } }`. A tenant\'s `timeZone` and `quietHours` apply to its recipients whose request and profile set none ([quiet hours](quiet-hours.md)). Validated at start; an error names the tenant and the field.',
    defaultText: 'none (no tenant defaults)',
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

/** Reads TENANTS_FILE (absent: no tenant has settings) into a lookup by tenant name. */
export function loadTenantSettings(path: string | undefined): (tenant: string) => TenantSettings | undefined {
  if (path === undefined) return () => undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TenantsFileError(`TENANTS_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const settings = new Map(Object.entries(parseTenantsFile(text)));
  return (tenant) => settings.get(tenant);
}
