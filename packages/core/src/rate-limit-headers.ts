import type { TenantLimitPolicy } from './tenant-settings';

/** The daily quota's window: a UTC day. */
export const QUOTA_WINDOW_SECONDS = 86_400;

/** Where a tenant stands after one limit call (Redis's clock), as the headers tell it. */
export interface TenantLimitState {
  policy: TenantLimitPolicy;
  /** Whole notifications the rate bucket still holds. */
  rateRemaining?: number;
  /** Milliseconds until the bucket holds one more. */
  rateResetMs?: number;
  /** Notifications left of today's quota (UTC day). */
  quotaRemaining?: number;
  /** Milliseconds until the UTC day ends and the quota starts again. */
  quotaResetMs?: number;
}

/** Which limit refused: the rate (retry in seconds) or the daily quota (retry tomorrow, UTC). */
export type LimitRefusal = 'rate' | 'quota';

const seconds = (ms: number | undefined) => Math.max(0, Math.ceil((ms ?? 0) / 1000));

/**
 * The policy field of draft-ietf-httpapi-ratelimit-headers (List of String items with `q` and
 * `w`): the rate as a bucket of `burst` that refills in `w` seconds (`q=100;w=1` for 100/s
 * with a burst of 100), the quota as `q` per 86400 s. Notifications are the quota units (a
 * batch item counts one); the draft's `qu` registry has no such unit, so `qu` is left out.
 */
export function rateLimitPolicyField(policy: TenantLimitPolicy): string | undefined {
  const items: string[] = [];
  if (policy.rate) items.push(`"rate";q=${policy.rate.burst};w=${Math.max(1, Math.ceil(policy.rate.burst / policy.rate.perSecond))}`);
  if (policy.dailyQuota !== undefined) items.push(`"daily";q=${policy.dailyQuota};w=${QUOTA_WINDOW_SECONDS}`);
  return items.length > 0 ? items.join(', ') : undefined;
}

/** The service-limit field: what is left of each policy (`r`) and the seconds until more is (`t`). */
export function rateLimitField(state: TenantLimitState): string | undefined {
  const items: string[] = [];
  if (state.policy.rate && state.rateRemaining !== undefined) items.push(`"rate";r=${state.rateRemaining};t=${seconds(state.rateResetMs)}`);
  if (state.policy.dailyQuota !== undefined && state.quotaRemaining !== undefined) {
    items.push(`"daily";r=${state.quotaRemaining};t=${seconds(state.quotaResetMs)}`);
  }
  return items.length > 0 ? items.join(', ') : undefined;
}

/** Retry-After (delta-seconds, at least 1) of a refusal: the next token, or the next UTC day. */
export function retryAfterSeconds(state: TenantLimitState, refusal: LimitRefusal): number {
  return Math.max(1, seconds(refusal === 'quota' ? state.quotaResetMs : state.rateResetMs));
}

/** Every header of an intake answer under limits; `refusal` adds Retry-After. Names lower-case, as node sends them. */
export function rateLimitHeaders(state: TenantLimitState, refusal?: LimitRefusal): Record<string, string> {
  const headers: Record<string, string> = {};
  const policy = rateLimitPolicyField(state.policy);
  const limit = rateLimitField(state);
  if (policy) headers['ratelimit-policy'] = policy;
  if (limit) headers.ratelimit = limit;
  if (refusal) headers['retry-after'] = String(retryAfterSeconds(state, refusal));
  return headers;
}
