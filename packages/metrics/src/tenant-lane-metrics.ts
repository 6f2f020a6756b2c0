import { Counter, Gauge, type Registry } from 'prom-client';
import { OTHER_TENANT_LABEL } from './tenant-metrics';

/** Tenants a process that is told none (the worker) labels by name at most; later ones count as `_other`. */
export const MAX_SEEN_TENANT_LABELS = 100;

/**
 * The tenant label: a configured tenant's name (`known`, the api's API_KEYS and TENANTS_FILE),
 * or without a list the first MAX_SEEN_TENANT_LABELS names seen; anything else `_other`. Either
 * way the label set is bounded.
 */
export function tenantLabeller(known?: readonly string[]): (tenant: string | undefined) => string {
  const names = new Set(known ?? []);
  return (tenant) => {
    if (tenant === undefined || tenant === '') return OTHER_TENANT_LABEL;
    if (names.has(tenant)) return tenant;
    if (known === undefined && names.size < MAX_SEEN_TENANT_LABELS) {
      names.add(tenant);
      return tenant;
    }
    return OTHER_TENANT_LABEL;
  };
}

/** One tenant's backlog in one lane, in steps (fair share's finish tag over the lane's virtual time). */
export interface LaneTenantBacklog {
  lane: string;
  tenant: string;
  steps: number;
}

/** `notify_lane_tenant_backlog{lane,tenant}`, read at scrape time (partitions summed per lane). */
export function registerLaneTenantBacklog(registry: Registry, tenants: readonly string[], read: () => Promise<LaneTenantBacklog[]>): Gauge<'lane' | 'tenant'> {
  const label = tenantLabeller(tenants);
  return new Gauge({
    name: 'notify_lane_tenant_backlog',
    help: "Steps of each configured tenant waiting in each lane under fair share (its finish tag's lead over the lane's virtual time, times its weight), read at scrape time.",
    labelNames: ['lane', 'tenant'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await read();
        this.reset();
        const sums = new Map<string, { lane: string; tenant: string; steps: number }>();
        for (const row of rows) {
          const tenant = label(row.tenant);
          const key = `${row.lane}\u0000${tenant}`;
          const sum = sums.get(key) ?? { lane: row.lane, tenant, steps: 0 };
          sum.steps += row.steps;
          sums.set(key, sum);
        }
        for (const { lane, tenant, steps } of sums.values()) this.set({ lane, tenant }, Math.round(steps));
      } catch {
        // Redis unreachable: /readyz reports it; the last values stay.
      }
    },
  });
}

/** `notify_tenant_delivered_total{tenant}`: notifications that ended delivered, per tenant (the worker's view). */
export function createTenantDeliveries(registry: Registry, tenants?: readonly string[]) {
  const label = tenantLabeller(tenants);
  const delivered = new Counter({
    name: 'notify_tenant_delivered_total',
    help: 'Notifications that ended delivered, per tenant (at most 100 tenant names per worker, then `_other`).',
    labelNames: ['tenant'] as const,
    registers: [registry],
  });
  return {
    delivered(tenant: string | undefined): void {
      delivered.inc({ tenant: label(tenant) });
    },
  };
}
