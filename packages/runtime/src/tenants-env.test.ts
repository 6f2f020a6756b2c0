import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTenantSettings, parseTenantsFile } from './tenants-env';

describe('TENANTS_FILE', () => {
  it('reads each tenant’s time zone and quiet hours; a tenant it does not name has none', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tenants-')), 'tenants.json');
    writeFileSync(path, JSON.stringify({ 'tenant-a': { timeZone: 'Europe/Berlin', quietHours: { start: '22:00', end: '08:00' } }, 'tenant-b': {} }));
    const settings = loadTenantSettings(path);
    expect(settings('tenant-a')).toEqual({ timeZone: 'Europe/Berlin', quietHours: { start: '22:00', end: '08:00' } });
    expect(settings('tenant-b')).toEqual({});
    expect(settings('tenant-c')).toBeUndefined();
    expect(loadTenantSettings(undefined)('tenant-a')).toBeUndefined();
  });

  it('names the tenant and the field of every problem', () => {
    expect(() => parseTenantsFile(JSON.stringify({ 'tenant-a': { timeZone: 'Europe/Nowhere' } }))).toThrow(/tenant-a\.timeZone: must be an IANA time zone/);
    expect(() => parseTenantsFile(JSON.stringify({ 'tenant-a': { quietHours: { start: '22:00', end: '22:00' } } }))).toThrow(
      /tenant-a\.quietHours\.end: must differ/,
    );
    expect(() => parseTenantsFile(JSON.stringify({ 'tenant-a': { quietHour: {} } }))).toThrow(/tenant-a: .*quietHour/);
    expect(() => parseTenantsFile('{')).toThrow(/TENANTS_FILE is not valid JSON/);
    expect(() => loadTenantSettings('/nonexistent/tenants.json')).toThrow(/TENANTS_FILE cannot be read \(ENOENT\)/);
  });
});
