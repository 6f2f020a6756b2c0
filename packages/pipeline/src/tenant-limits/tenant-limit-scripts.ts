import { join } from 'node:path';
import { tenantLimitsKey, type TenantLimitPolicy } from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import { defineLuaCommands, type LuaCommand } from '../lua-commands';
import { decodeReply } from '../scripts/script-reply';

/**
 * The tenant limits' Lua scripts (lua/, the pipeline's convention: `name-<numberOfKeys>.lua`
 * with a KEYS/ARGV/Returns header), each behind one typed function.
 */
export const TENANT_LIMIT_SCRIPTS = ['take-tenant-limit-1', 'refund-tenant-limit-1'] as const;
export const TENANT_LIMIT_LUA_DIR = join(__dirname, 'lua');

/** take-tenant-limit-1.lua's return codes (its header lists the same). */
export const TAKE_TENANT_LIMIT_CODES = { admitted: 0, rateLimited: 1, quotaExceeded: 2 } as const;
/** refund-tenant-limit-1.lua's return codes. */
export const REFUND_TENANT_LIMIT_CODES = { refunded: 0, gone: 1 } as const;

export interface TakeReply {
  code: keyof typeof TAKE_TENANT_LIMIT_CODES;
  /** How many of the n asked for are admitted (the first ones, in request order). */
  admitted: number;
  /** Left after this call; undefined when that limit is off. */
  rateLeft: number | undefined;
  rateResetMs: number;
  quotaLeft: number | undefined;
  quotaResetMs: number;
  /** The UTC day (days since the epoch, Redis's clock) the take counted in. */
  day: number;
}

export interface TenantLimitScripts {
  take(tenant: string, policy: TenantLimitPolicy, n: number): Promise<TakeReply>;
  refund(tenant: string, policy: TenantLimitPolicy, n: number, day: number): Promise<keyof typeof REFUND_TENANT_LIMIT_CODES>;
}

const orUndefined = (value: unknown): number | undefined => (Number(value) < 0 ? undefined : Number(value));

export function loadTenantLimitScripts(redis: RedisClient): TenantLimitScripts {
  const command: (name: (typeof TENANT_LIMIT_SCRIPTS)[number]) => LuaCommand = defineLuaCommands(
    redis,
    TENANT_LIMIT_LUA_DIR,
    'notify_tenant',
    TENANT_LIMIT_SCRIPTS,
  );
  return {
    async take(tenant, policy, n) {
      const reply = await command('take-tenant-limit-1')(
        tenantLimitsKey(tenant),
        n,
        policy.rate?.perSecond ?? 0,
        policy.rate?.burst ?? 0,
        policy.dailyQuota ?? 0,
      );
      const { code, detail } = decodeReply('take-tenant-limit-1', TAKE_TENANT_LIMIT_CODES, reply);
      const [admitted, rateLeft, rateResetMs, quotaLeft, quotaResetMs, day] = detail;
      return {
        code,
        admitted: Number(admitted),
        rateLeft: orUndefined(rateLeft),
        rateResetMs: Number(rateResetMs),
        quotaLeft: orUndefined(quotaLeft),
        quotaResetMs: Number(quotaResetMs),
        day: Number(day),
      };
    },
    async refund(tenant, policy, n, day) {
      const reply = await command('refund-tenant-limit-1')(tenantLimitsKey(tenant), n, policy.rate?.perSecond ?? 0, policy.dailyQuota ? day : -1);
      return decodeReply('refund-tenant-limit-1', REFUND_TENANT_LIMIT_CODES, reply).code;
    },
  };
}
