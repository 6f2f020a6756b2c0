import { join } from 'node:path';
import { tenantLimitsKey } from '@notify/core';
import {
  loadTenantLimitScripts,
  REFUND_TENANT_LIMIT_CODES,
  TAKE_TENANT_LIMIT_CODES,
  TENANT_LIMIT_LUA_DIR,
  TENANT_LIMIT_SCRIPTS,
  type TenantLimitScripts,
} from '@notify/pipeline';
import { headerReturnCodes } from './lua-header';
import { useScriptRedis } from './script-redis';

const { redis } = useScriptRedis();
let limits: TenantLimitScripts;
beforeAll(() => {
  limits = loadTenantLimitScripts(redis());
});

/** A bucket that refills one notification in ~17 minutes: nothing comes back while a test runs. */
const SLOW = { rate: { perSecond: 0.001, burst: 3 } };

describe.each(TENANT_LIMIT_SCRIPTS)('%s.lua', (script) => {
  it('lists in its header exactly the return codes its TypeScript constant names', () => {
    const codes = script === 'take-tenant-limit-1' ? TAKE_TENANT_LIMIT_CODES : REFUND_TENANT_LIMIT_CODES;
    expect(headerReturnCodes(join(TENANT_LIMIT_LUA_DIR, `${script}.lua`))).toEqual({ ...codes });
  });
});

describe('take-tenant-limit-1.lua', () => {
  it('admitted: every notification asked for, counting the bucket down, on the tenant key only', async () => {
    await expect(limits.take('t1', SLOW, 2)).resolves.toMatchObject({ code: 'admitted', admitted: 2, rateLeft: 1, quotaLeft: undefined });
    expect(await redis().keys('*')).toEqual([tenantLimitsKey('t1')]);
    expect(await redis().pttl(tenantLimitsKey('t1'))).toBeGreaterThan(0);
  });

  it('rateLimited: admits what the bucket holds, the first ones, and says when it holds one more', async () => {
    const reply = await limits.take('t1', SLOW, 5);
    expect(reply).toMatchObject({ code: 'rateLimited', admitted: 3, rateLeft: 0 });
    // One token every 1000 s: the next comes within that.
    expect(reply.rateResetMs).toBeGreaterThan(0);
    expect(reply.rateResetMs).toBeLessThanOrEqual(1_000_000);
    await expect(limits.take('t1', SLOW, 1)).resolves.toMatchObject({ code: 'rateLimited', admitted: 0 });
    await expect(limits.take('t2', SLOW, 1)).resolves.toMatchObject({ code: 'admitted', admitted: 1 });
  });

  it('quotaExceeded: admits what is left of the UTC day and says when it ends', async () => {
    const quota = { dailyQuota: 4 };
    await expect(limits.take('t1', quota, 3)).resolves.toMatchObject({ code: 'admitted', admitted: 3, quotaLeft: 1, rateLeft: undefined });
    const reply = await limits.take('t1', quota, 3);
    expect(reply).toMatchObject({ code: 'quotaExceeded', admitted: 1, quotaLeft: 0 });
    const [seconds] = await redis().time();
    expect(reply.day).toBe(Math.floor(Number(seconds) / 86_400));
    expect(reply.quotaResetMs).toBeLessThanOrEqual(((reply.day + 1) * 86_400 - Number(seconds)) * 1000);
    expect(reply.quotaResetMs).toBeGreaterThan(0);
  });

  it('names the quota when both limits are short and the quota is shorter', async () => {
    const both = { rate: { perSecond: 0.001, burst: 5 }, dailyQuota: 2 };
    await expect(limits.take('t1', both, 4)).resolves.toMatchObject({ code: 'quotaExceeded', admitted: 2, rateLeft: 3, quotaLeft: 0 });
  });
});

describe('refund-tenant-limit-1.lua', () => {
  it('refunded: the units come back to the bucket and the day', async () => {
    const both = { rate: { perSecond: 0.001, burst: 3 }, dailyQuota: 3 };
    const take = await limits.take('t1', both, 3);
    await expect(limits.refund('t1', both, 2, take.day)).resolves.toBe('refunded');
    await expect(limits.take('t1', both, 3)).resolves.toMatchObject({ code: 'quotaExceeded', admitted: 2 });
  });

  it('refunded, but not to another day: a take of yesterday lowers no count of today', async () => {
    const quota = { dailyQuota: 2 };
    const take = await limits.take('t1', quota, 2);
    await expect(limits.refund('t1', quota, 2, take.day - 1)).resolves.toBe('refunded');
    await expect(limits.take('t1', quota, 1)).resolves.toMatchObject({ code: 'quotaExceeded', admitted: 0 });
  });

  it('gone: nothing is kept for the tenant (expired, or never taken)', async () => {
    await expect(limits.refund('t1', SLOW, 1, 0)).resolves.toBe('gone');
  });
});
