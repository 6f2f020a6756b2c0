/**
 * Why an attempt failed, as the model knows it.
 * - `transient`: the provider hiccuped (BI5); waiting gives it time to recover.
 * - `permanent`: the recipient's address or consent is bad on that channel (BI6).
 * - `channel-down`: the whole channel is out. The caller sees timeouts and 5xx, i.e. the
 *   same thing as a transient error; only a breaker can tell it is lasting.
 */
export const FAILURE_KINDS = ['transient', 'permanent', 'channel-down'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * When to pause (BI9) before the next attempt.
 * - `always`: the seed's rule, a pause after every failure.
 * - `after-transient`: no pause after a permanent error: the next channel is a different
 *   provider, so there is nothing to wait for.
 */
export const WAIT_POLICIES = ['always', 'after-transient'] as const;
export type WaitPolicy = (typeof WAIT_POLICIES)[number];

/** Number of pauses (0 or 1) to take after a failure of this kind. */
export function pausesAfterFailure(policy: WaitPolicy, kind: FailureKind): 0 | 1 {
  if (policy === 'always') return 1;
  return kind === 'permanent' ? 0 : 1;
}
