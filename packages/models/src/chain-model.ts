import { BRANCH_BUDGET_MS, DURATION_PROFILES, GATEWAY_SHARE_MS, ORDINARY_MS, TRACKING, type ChainStep, type PerStep, type Regime } from './chain-profile';
import { percentile, splitBudget, TAIL_PERCENTILE, type SplitPolicy, type StepLatency } from './split-budget';

export const SEED_REQUESTS = 48;

export interface ChainOptions {
  readonly regime: Regime;
  readonly policy: SplitPolicy;
  /** Does the caller's give-up reach the dependency? @defaultValue false (the seed's runs) */
  readonly cancel?: boolean;
  /** @defaultValue 48 */
  readonly requests?: number;
  /** Percentile for `tail-aware`, read from the healthy profile. @defaultValue 0.99 */
  readonly tailPercentile?: number;
}

export interface ChainResult {
  readonly requests: number;
  readonly answered: number;
  readonly dropped: number;
  /** Calls that ended without an answer, including calls never made for lack of time. */
  readonly failures: PerStep<number>;
  readonly medianMs: number;
  readonly worstMs: number;
  readonly meanMs: number;
  /** ms a dependency kept working after its caller gave up (0 with cancellation). */
  readonly wastedMs: number;
  /** [tariff, measurement] shares the split gave the pricing branch, ms. */
  readonly shares: readonly [number, number];
  readonly endToEndMs: readonly number[];
}

/**
 * What a split policy sees of a step: the seed's ordinary latency and the tail of the
 * healthy-day profile. The tail comes from the healthy day on purpose: a split is configured
 * from normal operation and must not learn that the tariff store is slow today.
 */
export function stepLatency(step: ChainStep, q: number = TAIL_PERCENTILE): StepLatency {
  return { median: ORDINARY_MS[step], tail: percentile(DURATION_PROFILES.healthy[step], q) };
}

/** The pricing branch's two shares under a policy. */
export function pricingShares(policy: SplitPolicy, q: number = TAIL_PERCENTILE): [number, number] {
  const [tariff = 0, measurement = 0] = splitBudget(policy, BRANCH_BUDGET_MS, [stepLatency('tariff', q), stepLatency('measurement', q)]);
  return [tariff, measurement];
}

interface CallResult {
  readonly ok: boolean;
  readonly elapsedMs: number;
}

/**
 * The logical-clock run of the tracking chain. Per request: delivery-ops gets the whole
 * branch budget; in parallel, tariff gets min(share, budget) and measurement gets
 * min(share, budget - tariff's elapsed). A call with no time left is not made (and does not
 * advance that step's cycle); a call that overruns its timeout costs the caller the timeout
 * and, without cancellation, costs the dependency the overrun as wasted work.
 */
export function runChain(options: ChainOptions): ChainResult {
  const requests = options.requests ?? SEED_REQUESTS;
  if (!Number.isSafeInteger(requests) || requests < 1) {
    throw new RangeError(`requests must be an integer >= 1, got ${requests}`);
  }
  const profile = DURATION_PROFILES[options.regime];
  const cursor = { deliveryOps: 0, tariff: 0, measurement: 0 };
  const failures = { deliveryOps: 0, tariff: 0, measurement: 0 };
  let wastedMs = 0;

  const call = (step: ChainStep, timeoutMs: number): CallResult => {
    if (timeoutMs <= 0) return { ok: false, elapsedMs: 0 };
    const cycle = profile[step];
    const duration = cycle[cursor[step]++ % cycle.length] as number;
    if (duration <= timeoutMs) return { ok: true, elapsedMs: duration };
    if (options.cancel !== true) wastedMs += duration - timeoutMs;
    return { ok: false, elapsedMs: timeoutMs };
  };

  const shares = pricingShares(options.policy, options.tailPercentile);
  const endToEndMs: number[] = [];
  let answered = 0;
  let totalMs = 0;
  for (let i = 0; i < requests; i += 1) {
    const ops = call('deliveryOps', BRANCH_BUDGET_MS);
    const tariff = call('tariff', Math.min(shares[0], BRANCH_BUDGET_MS));
    const measurement = call('measurement', Math.min(shares[1], BRANCH_BUDGET_MS - tariff.elapsedMs));
    if (!ops.ok) failures.deliveryOps += 1;
    if (!tariff.ok) failures.tariff += 1;
    if (!measurement.ok) failures.measurement += 1;
    const elapsed = GATEWAY_SHARE_MS + Math.max(ops.elapsedMs, tariff.elapsedMs + measurement.elapsedMs);
    endToEndMs.push(elapsed);
    totalMs += elapsed;
    if (ops.ok && tariff.ok && measurement.ok && elapsed <= TRACKING.thresholdMs) answered += 1;
  }
  const sorted = [...endToEndMs].sort((x, y) => x - y);
  return {
    requests,
    answered,
    dropped: requests - answered,
    failures,
    // The upper median (index n >> 1), as the seed takes it.
    medianMs: sorted[requests >> 1] as number,
    worstMs: sorted[requests - 1] as number,
    meanMs: totalMs / requests,
    wastedMs,
    shares,
    endToEndMs,
  };
}
