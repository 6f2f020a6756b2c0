import { createSplitPolicy, SPLIT_POLICY_NAMES, type SplitPolicyName } from '@notify/budget-chain';

/**
 * How a branch's remaining time is shared between its sequential sub-calls (the policies are
 * @notify/budget-chain's; this file adapts them to the model's step list).
 * - `greedy`: each call may use all that remains (180 / 180);
 * - `equal`: the same share each (90 / 90);
 * - `weighted`: in proportion to ordinary (median) latencies (6:12 -> 60 / 120);
 * - `tail-aware` (ours): in proportion to each step's tail latency (a high percentile of its
 *   ordinary-day profile), so a step's normal slow moment fits inside its share.
 */
export const SPLIT_POLICIES = SPLIT_POLICY_NAMES;
export type SplitPolicy = SplitPolicyName;

/** The policies the seed document compares; the rest are ours. */
export const SEED_SPLIT_POLICIES: readonly SplitPolicy[] = ['greedy', 'equal', 'weighted'];

export interface StepLatency {
  /** Ordinary latency, ms (what `weighted` divides by). */
  readonly median: number;
  /** Tail latency, ms (what `tail-aware` divides by). */
  readonly tail: number;
}

/** Default percentile for the tail-aware split. */
export const TAIL_PERCENTILE = 0.99;

/**
 * One share per step (ms), in step order: the product's own split policies from
 * @notify/budget-chain, so the model's table and the gateway's timeouts cannot drift apart.
 */
export function splitBudget(policy: SplitPolicy, totalMs: number, steps: readonly StepLatency[]): number[] {
  if (steps.length === 0) return [];
  const named = steps.map((step, index) => [`step-${index}`, step] as const);
  const names = named.map(([name]) => name);
  const table = (pick: (step: StepLatency) => number) => Object.fromEntries(named.map(([name, step]) => [name, pick(step)] as const));
  return createSplitPolicy(policy, { expectedMs: table((s) => s.median), tailMs: table((s) => s.tail) }).shares(totalMs, names);
}

/**
 * Nearest-rank percentile: the smallest sample with at least q of the samples at or below
 * it. No interpolation, so the answer is always a duration that actually occurred.
 */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new RangeError('percentile of no samples');
  if (!(q > 0 && q <= 1)) throw new RangeError(`percentile must be in (0, 1], got ${q}`);
  const sorted = [...samples].sort((x, y) => x - y);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1] as number;
}

export function isSplitPolicy(value: unknown): value is SplitPolicy {
  return typeof value === 'string' && (SPLIT_POLICIES as readonly string[]).includes(value);
}
