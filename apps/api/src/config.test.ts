import { loadConfig } from './config';

describe('api config', () => {
  it('reads a renamed variable under its old name, with a warning naming the new one', () => {
    const config = loadConfig({ STEP_BATCH_MAX: '5', STEP_BATCH_WINDOW_MS: '0', SUPPRESSION_TTL_SECONDS: '60', BODY_LIMIT: '1mb' });
    expect(config.stepBatch).toEqual({ max: 5, windowMs: 0 });
    expect(config.providerEvents.suppressionTtlSeconds).toBe(60);
    expect(config.bodyLimit).toBe(1024 * 1024);
    expect(config.warnings).toEqual([
      expect.stringMatching(/^STEP_BATCH_MAX is renamed INTAKE_BATCH_MAX/),
      expect.stringMatching(/^STEP_BATCH_WINDOW_MS is renamed INTAKE_BATCH_WINDOW_MS/),
      expect.stringMatching(/^SUPPRESSION_TTL_SECONDS is renamed PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS/),
      expect.stringMatching(/^BODY_LIMIT is renamed API_BODY_LIMIT/),
    ]);
    expect(loadConfig({ INTAKE_BATCH_MAX: '5' }).warnings).toEqual([]);
  });

  it('refuses a former name that contradicts its new one, naming both', () => {
    expect(() => loadConfig({ STEP_BATCH_MAX: '5', INTAKE_BATCH_MAX: '6' })).toThrow(/STEP_BATCH_MAX: renamed INTAKE_BATCH_MAX, which is set to another value/);
  });

  it('trims provider names and event secrets', () => {
    const secret = 'Wm5cQ8tZ2vN7xK4bR1jH6pF9sL3dG0yE04';
    expect([...loadConfig({ PROVIDER_EVENT_SECRETS: ` email : ${secret} ` }).providerEvents.secrets]).toEqual([['email', secret]]);
  });

  it('reads TENANTS_FILE at start and refuses one it cannot read, naming it', () => {
    expect(loadConfig({}).tenantSettings('tenant-a')).toBeUndefined();
    expect(() => loadConfig({ TENANTS_FILE: '/nonexistent/tenants.json' })).toThrow(/TENANTS_FILE cannot be read/);
  });

  it('limits no tenant by default; the TENANT_* defaults apply to every tenant, each checked by name', () => {
    expect(loadConfig({}).tenantLimits('dev')).toBeUndefined();
    expect(loadConfig({ TENANT_RATE_PER_SECOND: '20', TENANT_DAILY_QUOTA: '500' }).tenantLimits('dev')).toEqual({
      rate: { perSecond: 20, burst: 20 },
      dailyQuota: 500,
    });
    expect(() => loadConfig({ TENANT_RATE_PER_SECOND: '0' })).toThrow(/TENANT_RATE_PER_SECOND/);
    expect(() => loadConfig({ TENANT_DAILY_QUOTA: '1.5' })).toThrow(/TENANT_DAILY_QUOTA/);
    expect(() => loadConfig({ TENANT_RATE_BURST: '5' })).toThrow(/TENANT_RATE_BURST: is the burst of TENANT_RATE_PER_SECOND/);
  });

  it("labels the per-tenant metrics with the configured tenants only (API_KEYS' and TENANTS_FILE's)", () => {
    expect(loadConfig({ API_KEYS: 'key-of-tenant-a-0001:tenant-a,key-of-tenant-b-0001:tenant-b' }).tenants).toEqual(['tenant-a', 'tenant-b']);
  });
});
