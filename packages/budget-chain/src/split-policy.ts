/**
 * Split policies: how a branch's budget is shared among sequential sub-calls. A policy
 * plans a share per step when the branch starts; each sub-call then runs with
 * min(its share, what is left of the branch), so a policy can never hand out more time
 * than exists, and a tight share cuts a slow step off before it eats its successor's time.
 */
export const SPLIT_POLICY_NAMES = ['greedy', 'equal', 'weighted', 'tail-aware'] as const;

export type SplitPolicyName = (typeof SPLIT_POLICY_NAMES)[number];

export interface SplitPolicy {
  readonly name: SplitPolicyName;
  /** Planned share in ms for each step, in order, out of `totalMs`. */
  shares(totalMs: number, steps: readonly string[]): number[];
}

/** Expected (typical) latency per step in ms, e.g. medians `{ tariff: 6, measurement: 12 }`. */
export type LatencyTable = Readonly<Record<string, number>>;

export function isSplitPolicyName(value: string): value is SplitPolicyName {
  return (SPLIT_POLICY_NAMES as readonly string[]).includes(value);
}

/** Every step may use all that remains (180 / 180): no step is cut while time is left. */
export function greedyPolicy(): SplitPolicy {
  return { name: 'greedy', shares: (totalMs, steps) => steps.map(() => totalMs) };
}

/** Each of n steps gets total/n (90 / 90). */
export function equalPolicy(): SplitPolicy {
  return { name: 'equal', shares: (totalMs, steps) => steps.map(() => totalMs / Math.max(1, steps.length)) };
}

/** Shares proportional to expected latencies (medians 6:12 -> 60 / 120 of 180 ms). */
export function weightedPolicy(expectedMs: LatencyTable): SplitPolicy {
  return { name: 'weighted', shares: proportional('weighted', expectedMs) };
}

/**
 * Shares proportional to each step's tail latency (a high percentile, not the median), so
 * a healthy step's long tail fits inside its share. With tails 80:100 the 180 ms branch
 * splits 80 / 100. The tails are inputs: take them from config, or compute them from
 * observed samples with `latencyTableFromSamples(samples, percentile)`.
 */
export function tailAwarePolicy(tailMs: LatencyTable): SplitPolicy {
  return { name: 'tail-aware', shares: proportional('tail-aware', tailMs) };
}

function proportional(policy: SplitPolicyName, table: LatencyTable): SplitPolicy['shares'] {
  for (const [step, ms] of Object.entries(table)) {
    if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`${policy} policy: latency for "${step}" must be a positive number (got ${ms})`);
  }
  return (totalMs, steps) => {
    const weights = steps.map((step) => {
      const weight = table[step];
      if (weight === undefined) throw new RangeError(`${policy} policy: no latency configured for step "${step}"`);
      return weight;
    });
    const sum = weights.reduce((a, b) => a + b, 0);
    return weights.map((weight) => (totalMs * weight) / sum);
  };
}

export interface SplitPolicyParams {
  /** Expected latencies (medians) for `weighted`. */
  expectedMs?: LatencyTable;
  /** Tail latencies (high percentile) for `tail-aware`. */
  tailMs?: LatencyTable;
}

/** Builds a policy by name; throws a readable error for unknown names or missing inputs. */
export function createSplitPolicy(name: string, params: SplitPolicyParams = {}): SplitPolicy {
  if (!isSplitPolicyName(name)) {
    throw new RangeError(`unknown split policy "${name}"; expected one of ${SPLIT_POLICY_NAMES.join(', ')}`);
  }
  switch (name) {
    case 'greedy':
      return greedyPolicy();
    case 'equal':
      return equalPolicy();
    case 'weighted':
      if (params.expectedMs === undefined) throw new RangeError('weighted policy needs expected latencies (expectedMs)');
      return weightedPolicy(params.expectedMs);
    case 'tail-aware':
      if (params.tailMs === undefined) throw new RangeError('tail-aware policy needs tail latencies (tailMs)');
      return tailAwarePolicy(params.tailMs);
  }
}

/** Nearest-rank percentile (0 < p <= 100) of a non-empty sample. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError('percentile of an empty sample');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Per-step percentile of observed latencies: the input a tail-aware policy wants. */
export function latencyTableFromSamples(samples: Readonly<Record<string, readonly number[]>>, p: number): Record<string, number> {
  const table: Record<string, number> = {};
  for (const [step, values] of Object.entries(samples)) table[step] = percentile(values, p);
  return table;
}
