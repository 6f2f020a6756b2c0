import { Counter, type Registry } from 'prom-client';

/** The label of a tenant not configured (never its id: the label set stays bounded). */
export const OTHER_TENANT_LABEL = '_other';

const RESULTS = ['accepted', 'rate_limited', 'quota_exceeded'] as const;

/**
 * Intake per tenant: notifications accepted, refused by the tenant's rate, refused by its daily
 * quota. `tenants` are the configured ones (API_KEYS, TENANTS_FILE): each gets its series at 0
 * from the start; any other name is counted as `_other`.
 */
export function createTenantMetrics(registry: Registry, tenants: readonly string[]) {
  const known = new Set(tenants);
  const label = (tenant: string) => (known.has(tenant) ? tenant : OTHER_TENANT_LABEL);
  const notifications = new Counter({
    name: 'notify_tenant_notifications_total',
    help: 'Intake per configured tenant: notifications accepted, refused by its rate (rate_limited) or its daily quota (quota_exceeded); a batch counts each item.',
    labelNames: ['tenant', 'result'] as const,
    registers: [registry],
  });
  for (const tenant of [...known, OTHER_TENANT_LABEL]) for (const result of RESULTS) notifications.inc({ tenant, result }, 0);
  return {
    accepted(tenant: string, n = 1): void {
      if (n > 0) notifications.inc({ tenant: label(tenant), result: 'accepted' }, n);
    },
    refused(tenant: string, refusal: 'rate' | 'quota', n: number): void {
      if (n > 0) notifications.inc({ tenant: label(tenant), result: refusal === 'quota' ? 'quota_exceeded' : 'rate_limited' }, n);
    },
  };
}

export type TenantMetrics = ReturnType<typeof createTenantMetrics>;
