import type { Priority } from '@notify/core';

/**
 * Where each tenant's waiting work sits, for intake to push back on the tenant that put the
 * lanes behind rather than on everyone (docs/backpressure.md, "Per tenant"): the fair-share
 * tags' backlog of every tenant in the lanes of one class, in steps, and the tenant's weight.
 */
export interface TenantBacklogSource {
  read(priority: Priority): Promise<Map<string, number>>;
  weightOf(tenant: string): number;
}

/**
 * The tenants holding at least their weighted fair share of a class's backlog (weight over the
 * summed weights of the tenants with backlog): while the lanes are behind, theirs is the new work
 * refused. A tenant with no backlog, or less than its share, is not among them: its work is still
 * taken. A single tenant alone holds all of it (share 1 of 1), so with one tenant push-back is
 * what it always was.
 */
export function tenantsAtFairShare(backlogs: ReadonlyMap<string, number>, weightOf: (tenant: string) => number): Set<string> {
  let steps = 0;
  let weights = 0;
  for (const [tenant, n] of backlogs) {
    if (n <= 0) continue;
    steps += n;
    weights += Math.max(1, weightOf(tenant));
  }
  const at = new Set<string>();
  for (const [tenant, n] of backlogs) {
    if (n > 0 && n / steps >= Math.max(1, weightOf(tenant)) / weights) at.add(tenant);
  }
  return at;
}
