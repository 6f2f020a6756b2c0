import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTenantsFile, readTenantsFile, tenantLimitLookup, toDefaultTenantLimits } from './tenants-env';

describe('TENANTS_FILE', () => {
  it('reads each tenant’s time zone, quiet hours and limits; a tenant it does not name has none', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tenants-')), 'tenants.json');
    const limits = { rate: { perSecond: 100, burst: 200 }, dailyQuota: 1_000_000 };
    writeFileSync(path, JSON.stringify({ 'tenant-a': { timeZone: 'Europe/Berlin', quietHours: { start: '22:00', end: '08:00' }, limits }, 'tenant-b': {} }));
    const settings = readTenantsFile(path);
    expect(settings.get('tenant-a')).toEqual({ timeZone: 'Europe/Berlin', quietHours: { start: '22:00', end: '08:00' }, limits });
    expect(settings.get('tenant-b')).toEqual({});
    expect(settings.get('tenant-c')).toBeUndefined();
    expect(readTenantsFile(undefined).size).toBe(0);
  });

  it('names the tenant and the field of every problem', () => {
    expect(() => parseTenantsFile(JSON.stringify({ 'tenant-a': { timeZone: 'Europe/Nowhere' } }))).toThrow(/tenant-a\.timeZone: must be an IANA time zone/);
    expect(() => parseTenantsFile(JSON.stringify({ 'tenant-a': { quietHours: { start: '22:00', end: '22:00' } } }))).toThrow(
      /tenant-a\.quietHours\.end: must differ/,
    );
    expect(() => parseTenantsFile(JSON.stringify({ 'tenant-a': { quietHour: {} } }))).toThrow(/tenant-a: .*quietHour/);
    expect(() => parseTenantsFile('{')).toThrow(/TENANTS_FILE is not valid JSON/);
    expect(() => readTenantsFile('/nonexistent/tenants.json')).toThrow(/TENANTS_FILE cannot be read \(ENOENT\)/);
  });

  it('reads a fair-share weight of 1 to 1000 and refuses any other, naming the tenant and the field', () => {
    expect(parseTenantsFile(JSON.stringify({ 'tenant-a': { weight: 5 }, 'tenant-b': { weight: 1000 } }))).toEqual({
      'tenant-a': { weight: 5 },
      'tenant-b': { weight: 1000 },
    });
    const bad = (weight: unknown) => () => parseTenantsFile(JSON.stringify({ 'tenant-a': { weight } }));
    expect(bad(0)).toThrow(/tenant-a\.weight: must be at least 1/);
    expect(bad(1001)).toThrow(/tenant-a\.weight: must be at most 1000/);
    expect(bad(2.5)).toThrow(/tenant-a\.weight: must be a whole number/);
    expect(bad('3')).toThrow(/tenant-a\.weight/);
  });

  it('refuses a bad limit, naming the tenant and the field', () => {
    const bad = (limits: unknown) => () => parseTenantsFile(JSON.stringify({ 'tenant-a': { limits } }));
    expect(bad({ rate: { perSecond: 0 } })).toThrow(/tenant-a\.limits\.rate\.perSecond: must be above 0/);
    expect(bad({ rate: { perSecond: 10, burst: 0 } })).toThrow(/tenant-a\.limits\.rate\.burst/);
    expect(bad({ rate: { perSecond: 10, burst: 1.5 } })).toThrow(/tenant-a\.limits\.rate\.burst/);
    expect(bad({ rate: { perSecond: 10, brust: 20 } })).toThrow(/tenant-a\.limits\.rate: .*brust/);
    expect(bad({ dailyQuota: 0 })).toThrow(/tenant-a\.limits\.dailyQuota: must be at least 1/);
    expect(bad({ dailyQuota: '100' })).toThrow(/tenant-a\.limits\.dailyQuota/);
    expect(bad({ perDay: 100 })).toThrow(/tenant-a\.limits: .*perDay/);
  });
});

describe('tenant limits', () => {
  const file = parseTenantsFile(
    JSON.stringify({
      own: { limits: { rate: { perSecond: 5, burst: 20 }, dailyQuota: 100 } },
      unlimited: { limits: { rate: null, dailyQuota: null } },
      quotaOnly: { limits: { dailyQuota: 7 } },
      noLimits: { timeZone: 'UTC' },
    }),
  );
  const settings = new Map(Object.entries(file));

  it('has none without defaults or own limits: no tenant is limited', () => {
    const limits = tenantLimitLookup(settings, toDefaultTenantLimits({}));
    expect(limits('noLimits')).toBeUndefined();
    expect(limits('unknown')).toBeUndefined();
    expect(limits('own')).toEqual({ rate: { perSecond: 5, burst: 20 }, dailyQuota: 100 });
    expect(limits('quotaOnly')).toEqual({ dailyQuota: 7 });
  });

  it("takes the tenant's own over the TENANT_* defaults field by field, null turning one off", () => {
    const limits = tenantLimitLookup(settings, toDefaultTenantLimits({ TENANT_RATE_PER_SECOND: 50, TENANT_DAILY_QUOTA: 10_000 }));
    expect(limits('unknown')).toEqual({ rate: { perSecond: 50, burst: 50 }, dailyQuota: 10_000 });
    expect(limits('noLimits')).toEqual({ rate: { perSecond: 50, burst: 50 }, dailyQuota: 10_000 });
    expect(limits('quotaOnly')).toEqual({ rate: { perSecond: 50, burst: 50 }, dailyQuota: 7 });
    expect(limits('unlimited')).toBeUndefined();
    expect(limits('own')).toEqual({ rate: { perSecond: 5, burst: 20 }, dailyQuota: 100 });
  });

  it('gives a rate without a burst the burst of one second, at least 1', () => {
    const limits = tenantLimitLookup(new Map(), toDefaultTenantLimits({ TENANT_RATE_PER_SECOND: 0.2 }));
    expect(limits('any')).toEqual({ rate: { perSecond: 0.2, burst: 1 } });
    expect(tenantLimitLookup(new Map(), toDefaultTenantLimits({ TENANT_RATE_PER_SECOND: 2.5, TENANT_RATE_BURST: 9 }))('any')).toEqual({
      rate: { perSecond: 2.5, burst: 9 },
    });
  });
});
