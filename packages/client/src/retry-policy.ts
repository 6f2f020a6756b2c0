/** How the client retries a call the api refused for now (429, 503) or that got no answer. */
export interface RetryOptions {
  /** Attempts in all, the first included. @defaultValue 4 */
  maxAttempts?: number;
  /** No attempt starts later than this after the first one did. @defaultValue 30000 */
  maxElapsedMs?: number;
  /** The first backoff; each further one doubles, up to `maxDelayMs`. @defaultValue 250 */
  baseDelayMs?: number;
  /** The largest backoff without a `Retry-After` (the api's `Retry-After` is honoured above it). @defaultValue 5000 */
  maxDelayMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, maxElapsedMs: 30_000, baseDelayMs: 250, maxDelayMs: 5_000 };

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, maxAttempts: 1 };
  const policy = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) throw new RangeError('retry.maxAttempts must be a positive integer');
  return policy;
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): at least the api's
 * `Retry-After`, else exponential backoff with jitter ("equal jitter": half fixed, half random),
 * so clients refused together do not come back together.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = backoff / 2 + random() * (backoff / 2);
  if (retryAfterMs === undefined) return Math.round(jittered);
  // The api's word is the floor; a little jitter on top spreads the clients it told the same.
  return Math.round(retryAfterMs + random() * Math.min(policy.baseDelayMs, retryAfterMs / 10));
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
