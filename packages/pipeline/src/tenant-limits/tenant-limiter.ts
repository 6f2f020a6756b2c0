import {
  notificationId,
  notificationKey,
  partitionOfId,
  payloadFingerprint,
  type LimitRefusal,
  type NotificationRequest,
  type NotificationStatus,
  type TenantLimitPolicy,
  type TenantLimitState,
} from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import { loadTenantLimitScripts, type TenantLimitScripts } from './tenant-limit-scripts';

/** One limit call's outcome: how many of the asked-for notifications may go on. */
export interface LimitTake {
  tenant: string;
  policy: TenantLimitPolicy;
  /** The first `admitted` of the request's notifications (in request order) may be accepted. */
  admitted: number;
  /** Why the rest were refused; undefined when all were admitted. */
  refusal: LimitRefusal | undefined;
  /** For the answer's RateLimit headers. */
  state: TenantLimitState;
  day: number;
}

/** The tenants' intake limits: one Redis call per request to take, one more only to give back. */
export interface TenantLimiter {
  /** Takes n (>= 1) of the tenant's limits; undefined (and no Redis call) when it has none. */
  take(tenant: string, n: number): Promise<LimitTake | undefined>;
  /** Gives back `n` admitted notifications that were not created (duplicates, items refused later, failures). */
  refund(take: LimitTake, n: number): Promise<void>;
  /** The notification this request repeats, when one with the same payload is already accepted (not refused by the limit). */
  acceptedBefore(tenant: string, request: NotificationRequest): Promise<{ id: string; status: NotificationStatus } | undefined>;
}

export interface TenantLimiterDeps {
  redis: RedisClient;
  partitions: number;
  /** The tenant's limits (TENANTS_FILE over the TENANT_* defaults); undefined: none. */
  policyOf: (tenant: string) => TenantLimitPolicy | undefined;
  scripts?: TenantLimitScripts;
}

export function createTenantLimiter(deps: TenantLimiterDeps): TenantLimiter {
  const scripts = deps.scripts ?? loadTenantLimitScripts(deps.redis);
  return {
    async take(tenant, n) {
      const policy = deps.policyOf(tenant);
      if (!policy) return undefined;
      const reply = await scripts.take(tenant, policy, n);
      const refusal: LimitRefusal | undefined = reply.code === 'admitted' ? undefined : reply.code === 'quotaExceeded' ? 'quota' : 'rate';
      const state: TenantLimitState = { policy, rateResetMs: reply.rateResetMs, quotaResetMs: reply.quotaResetMs };
      if (reply.rateLeft !== undefined) state.rateRemaining = reply.rateLeft;
      if (reply.quotaLeft !== undefined) state.quotaRemaining = reply.quotaLeft;
      return { tenant, policy, admitted: reply.admitted, refusal, state, day: reply.day };
    },
    async refund(take, n) {
      if (n <= 0) return;
      // A refund lost to a Redis fault leaves those units counted: the request's answer stands.
      await scripts.refund(take.tenant, take.policy, n, take.day).catch(() => undefined);
    },
    async acceptedBefore(tenant, request) {
      const id = notificationId(tenant, request.eventId, request.recipient.id);
      const [fp, status] = await deps.redis.hmget(notificationKey(id, partitionOfId(id, deps.partitions)), 'fp', 'status');
      if (fp !== payloadFingerprint(request) || !status) return undefined;
      return { id, status: status as NotificationStatus };
    },
  };
}
