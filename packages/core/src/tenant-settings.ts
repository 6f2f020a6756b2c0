import { z } from 'zod';
import { quietHoursSchema, timeZoneSchema } from './time/quiet-hours';

/**
 * One tenant's settings (TENANTS_FILE): the defaults that apply to its notifications when
 * neither the request nor the recipient's profile sets them. Strict: a misspelt key is refused
 * at start, naming it, rather than silently ignored.
 */
export const tenantSettingsSchema = z.strictObject({
  timeZone: timeZoneSchema.optional().describe('The time zone of recipients whose profile names none.'),
  quietHours: quietHoursSchema.optional().describe('The quiet hours of recipients whose profile sets none.'),
});

/** The whole file: tenant name -> settings. A tenant it does not name has no defaults. */
export const tenantSettingsFileSchema = z.record(z.string().min(1, 'a tenant name must not be empty'), tenantSettingsSchema);

export type TenantSettings = z.infer<typeof tenantSettingsSchema>;
export type TenantSettingsFile = z.infer<typeof tenantSettingsFileSchema>;
