import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TenantSettingsFile } from '@notify/core';

/** The env that gives a platform these tenant settings (weights, limits, defaults): TENANTS_FILE, written to a fresh directory. */
export function tenantsFileEnv(tenants: TenantSettingsFile): { TENANTS_FILE: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'tenants-')), 'tenants.json');
  writeFileSync(file, JSON.stringify(tenants));
  return { TENANTS_FILE: file };
}
