import type { Registry } from 'prom-client';
import { CHANNELS, DEFAULT_TENANT_WEIGHT, channelQueueName, type Priority } from '@notify/core';
import { registerLaneTenantBacklog } from '@notify/metrics';
import { LaneFairShare, laneTenantBacklogs, type ChannelQueuesFairShare, type TaggedLane, type TenantBacklogSource } from '@notify/pipeline';
import type { RedisClient } from '@notify/runtime';
import type { ApiConfig } from './config';

/**
 * LANE_FAIR_SHARE for the api's first steps (docs/tenants.md, "Fair share"): each tenant's
 * weight from TENANTS_FILE, and the per-tenant backlog gauge over `lanes` (read at scrape time;
 * labels: the configured tenants, then `_other`). Undefined when off.
 */
export function apiLaneFairShare(
  redis: RedisClient,
  config: Pick<ApiConfig, 'laneFairShare' | 'tenantSettings' | 'tenants'>,
  registry: Registry,
  lanes: () => readonly (TaggedLane & { name: string })[],
): ChannelQueuesFairShare | undefined {
  if (!config.laneFairShare) return undefined;
  const tags = new LaneFairShare(redis);
  registerLaneTenantBacklog(registry, config.tenants, () => laneTenantBacklogs(tags, lanes()));
  return { tags, weightOf: (tenant) => config.tenantSettings(tenant)?.weight ?? DEFAULT_TENANT_WEIGHT };
}

/**
 * What per-tenant push-back reads (docs/backpressure.md, "Per tenant"): each tenant's backlog
 * summed over the lanes of one class, every channel and partition; undefined without fair share.
 */
export function tenantBacklogSource(
  fair: ChannelQueuesFairShare | undefined,
  queues: { all(): readonly (TaggedLane & { name: string })[] },
): TenantBacklogSource | undefined {
  if (!fair) return undefined;
  return {
    weightOf: fair.weightOf ?? (() => DEFAULT_TENANT_WEIGHT),
    async read(priority: Priority) {
      const names = new Set(CHANNELS.map((c) => channelQueueName(c, priority)));
      const sums = new Map<string, number>();
      const backlogs = await laneTenantBacklogs(
        fair.tags,
        queues.all().filter((l) => names.has(l.name)),
      );
      for (const { tenant, steps } of backlogs) {
        sums.set(tenant, (sums.get(tenant) ?? 0) + steps);
      }
      return sums;
    },
  };
}
