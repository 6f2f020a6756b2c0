import { Counter, type Registry } from 'prom-client';

/** The label of a tenant not configured (never its id: the label set stays bounded). */
export const OTHER_TENANT_LABEL = '_other';

const RESULTS = ['accepted', 'rate_limited', 'quota_exceeded', 'backlog_full'] as const;
const REFUSED = { rate: 'rate_limited', quota: 'quota_exceeded', backlog: 'backlog_full' } as const;

/**
 * Intake per tenant: notifications accepted, refused by the tenant's rate, by its daily quota,
 * or by the lanes' backlog (docs/backpressure.md). `tenants` are the configured ones (API_KEYS, TENANTS_FILE): each gets its series at 0
 * from the start; any other name is counted as `_other`.
 */
export function createTenantMetrics(registry: Registry, tenants: readonly string[]) {
  const known = new Set(tenants);
  const label = (tenant: string) => (known.has(tenant) ? tenant : OTHER_TENANT_LABEL);
  const notifications = new Counter({
    name: 'notify_tenant_notifications_total',
    help: 'Intake per configured tenant: notifications accepted, refused by its rate (rate_limited), its daily quota (quota_exceeded) or while the lanes are behind (backlog_full); a batch counts each item.',
    labelNames: ['tenant', 'result'] as const,
    registers: [registry],
  });
  for (const tenant of [...known, OTHER_TENANT_LABEL]) for (const result of RESULTS) notifications.inc({ tenant, result }, 0);
  return {
    accepted(tenant: string, n = 1): void {
      if (n > 0) notifications.inc({ tenant: label(tenant), result: 'accepted' }, n);
    },
    refused(tenant: string, refusal: keyof typeof REFUSED, n: number): void {
      if (n > 0) notifications.inc({ tenant: label(tenant), result: REFUSED[refusal] }, n);
    },
  };
}

export type TenantMetrics = ReturnType<typeof createTenantMetrics>;
