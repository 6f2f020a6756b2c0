import type { Registry } from 'prom-client';
import { DEFAULT_TENANT_WEIGHT } from '@notify/core';
import { registerLaneTenantBacklog } from '@notify/metrics';
import { LaneFairShare, laneTenantBacklogs, type ChannelQueuesFairShare, type TaggedLane } from '@notify/pipeline';
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
