/**
 * How a branch's remaining time is shared between its sequential sub-calls.
 * - `greedy`: each call may use all that remains (180 / 180);
 * - `equal`: the same share each (90 / 90);
 * - `weighted`: in proportion to ordinary (median) latencies (6:12 -> 60 / 120);
 * - `tail-aware` (ours): in proportion to each step's tail latency (a high percentile of its
 *   ordinary-day profile), so a step's normal slow moment fits inside its share.
 */
export const SPLIT_POLICIES = ['greedy', 'equal', 'weighted', 'tail-aware'] as const;
export type SplitPolicy = (typeof SPLIT_POLICIES)[number];

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

/** Shares proportional to weights: (total x w) / sum, the seed's operand order. */
function proportional(totalMs: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((acc, w) => acc + w, 0);
  if (!(sum > 0)) throw new RangeError('latencies must sum to more than 0');
  return weights.map((w) => (totalMs * w) / sum);
}

/** One share per step (ms), in step order. Pure, so the product can reuse it verbatim. */
export function splitBudget(policy: SplitPolicy, totalMs: number, steps: readonly StepLatency[]): number[] {
  if (steps.length === 0) return [];
  switch (policy) {
    case 'greedy':
      return steps.map(() => totalMs);
    case 'equal':
      return steps.map(() => totalMs / steps.length);
    case 'weighted':
      return proportional(totalMs, steps.map((s) => s.median));
    case 'tail-aware':
      return proportional(totalMs, steps.map((s) => s.tail));
  }
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
