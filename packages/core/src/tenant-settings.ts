import { z } from 'zod';
import { quietHoursSchema, timeZoneSchema } from './time/quiet-hours';

/** The largest rate and quota a tenant may be given: far above one api's capacity, below float trouble. */
const MAX_RATE_PER_SECOND = 1_000_000;
const MAX_DAILY_QUOTA = 1_000_000_000_000;

/** A tenant's fair-share weight: 1 (the default) to 1000 times another's share of a lane. */
export const MIN_TENANT_WEIGHT = 1;
export const MAX_TENANT_WEIGHT = 1_000;
export const DEFAULT_TENANT_WEIGHT = 1;

/** A token bucket: `perSecond` notifications a second on average, up to `burst` at once. */
export const tenantRateSchema = z.strictObject({
  perSecond: z
    .number()
    .positive('must be above 0 (null turns the rate off)')
    .max(MAX_RATE_PER_SECOND)
    .describe('Notifications a second on average (fractions allowed: 0.5 = one every 2 s).'),
  burst: z.number().int().min(1).max(MAX_DAILY_QUOTA).optional().describe('Notifications accepted at once from a full bucket; default `ceil(perSecond)`.'),
});

/**
 * A tenant's intake limits. Each is optional (the TENANT_* defaults apply) and `null` turns it
 * off for this tenant whatever the default.
 */
export const tenantLimitsSchema = z.strictObject({
  rate: tenantRateSchema.nullable().optional().describe('The rate, or null for none.'),
  dailyQuota: z
    .number()
    .int()
    .min(1, 'must be at least 1 (null turns the quota off)')
    .max(MAX_DAILY_QUOTA)
    .nullable()
    .optional()
    .describe('Notifications accepted per UTC day, or null for none.'),
});

/**
 * One tenant's settings (TENANTS_FILE): the defaults that apply to its notifications when
 * neither the request nor the recipient's profile sets them, and its intake limits. Strict: a
 * misspelt key is refused at start, naming it, rather than silently ignored.
 */
export const tenantSettingsSchema = z.strictObject({
  timeZone: timeZoneSchema.optional().describe('The time zone of recipients whose profile names none.'),
  quietHours: quietHoursSchema.optional().describe('The quiet hours of recipients whose profile sets none.'),
  limits: tenantLimitsSchema.optional().describe("The tenant's intake rate and daily quota (docs/tenants.md)."),
  weight: z
    .number()
    .int('must be a whole number')
    .min(MIN_TENANT_WEIGHT, `must be at least ${MIN_TENANT_WEIGHT}`)
    .max(MAX_TENANT_WEIGHT, `must be at most ${MAX_TENANT_WEIGHT}`)
    .optional()
    .describe("The tenant's share of each lane against other tenants with backlog there (fair share, docs/tenants.md); default 1."),
});

/** The whole file: tenant name -> settings. A tenant it does not name has no defaults. */
export const tenantSettingsFileSchema = z.record(z.string().min(1, 'a tenant name must not be empty'), tenantSettingsSchema);

export type TenantSettings = z.infer<typeof tenantSettingsSchema>;
export type TenantSettingsFile = z.infer<typeof tenantSettingsFileSchema>;
export type TenantLimitsSettings = z.infer<typeof tenantLimitsSchema>;

/** The limits that apply to one tenant, resolved: an absent field is no limit of that kind. */
export interface TenantLimitPolicy {
  rate?: { perSecond: number; burst: number };
  dailyQuota?: number;
}

/**
 * The tenant's own limits over the defaults, field by field (`null` in the tenant's: off).
 * Undefined when neither limit applies: its intake makes no limit call at all.
 */
export function resolveTenantLimits(own: TenantLimitsSettings | undefined, defaults: TenantLimitsSettings): TenantLimitPolicy | undefined {
  const rate = own?.rate === undefined ? defaults.rate : own.rate;
  const dailyQuota = own?.dailyQuota === undefined ? defaults.dailyQuota : own.dailyQuota;
  const policy: TenantLimitPolicy = {};
  if (rate) policy.rate = { perSecond: rate.perSecond, burst: rate.burst ?? Math.ceil(rate.perSecond) };
  if (dailyQuota) policy.dailyQuota = dailyQuota;
  return policy.rate || policy.dailyQuota ? policy : undefined;
}
