import {
  BRANCH_BUDGET_MS,
  DEADLINE_FIELD_BYTES,
  GATEWAY_SHARE_MS,
  ORDINARY_MS,
  REGIMES,
  slotsHeld,
  SUBCALLS_PER_REQUEST,
  TRACKING,
  type PerStep,
  type Regime,
} from './chain-profile';
import { pricingShares, runChain, SEED_REQUESTS, stepLatency, type ChainResult } from './chain-model';
import type { Origin } from './dispatch-report';
import { SEED_SPLIT_POLICIES, SPLIT_POLICIES, TAIL_PERCENTILE, type SplitPolicy } from './split-budget';

export interface BudgetInputs {
  readonly requests: number;
  readonly policies: readonly SplitPolicy[];
  readonly regimes: readonly Regime[];
  readonly tailPercentile: number;
}

export const DEFAULT_BUDGET_INPUTS: BudgetInputs = Object.freeze({
  requests: SEED_REQUESTS,
  policies: SPLIT_POLICIES,
  regimes: REGIMES,
  tailPercentile: TAIL_PERCENTILE,
});

/** AY10's duration sensitivity: (minutes slow, times a month), as the seed tabulates it. */
export const SLOWDOWN_CASES: readonly (readonly [number, number])[] = [
  [12, 1],
  [12, 2],
  [24, 1],
];
/** Percentiles the tail-aware sweep tries, to show where the tail stops being seen. */
export const TAIL_SWEEP = [0.5, 0.9, 0.95, 0.99] as const;

const originOf = (policy: SplitPolicy): Origin => (SEED_SPLIT_POLICIES.includes(policy) ? 'seed' : 'ours');

/** One run of the chain model as a table row: the caller's figures of a ChainResult, named by regime and policy. */
export interface ChainRow extends Pick<ChainResult, 'answered' | 'dropped' | 'failures' | 'medianMs' | 'worstMs' | 'meanMs' | 'wastedMs'> {
  readonly regime: Regime;
  readonly policy: SplitPolicy;
  readonly origin: Origin;
  readonly slotsHeld: number;
}

export interface BudgetReport {
  readonly command: 'budget';
  readonly inputs: BudgetInputs;
  readonly chain: {
    readonly thresholdMs: number;
    readonly gatewayShareMs: number;
    readonly branchBudgetMs: number;
    readonly ordinaryMs: PerStep<number>;
    readonly tailMs: PerStep<number>;
  };
  readonly splits: readonly { readonly policy: SplitPolicy; readonly origin: Origin; readonly tariffMs: number; readonly measurementMs: number }[];
  /** Without cancellation, like every run the seed tabulates. */
  readonly runs: readonly ChainRow[];
  /** Tariff-slow only; empty when that regime is not selected. */
  readonly busySlots: readonly {
    readonly policy: SplitPolicy;
    readonly origin: Origin;
    readonly callerSlots: number;
    readonly abandonedSlots: number;
    readonly totalWithoutCancel: number;
    readonly totalWithCancel: number;
  }[];
  /** Healthy regime only; null when it is not selected. */
  readonly healthyDayCost: {
    readonly deadlineBytesPerRequest: number;
    readonly shareOfResponsePercent: number;
    readonly bytesPerSecondAtPeak: number;
    readonly kibPerSecondAtPeak: number;
    readonly extraDrops: readonly {
      readonly policy: SplitPolicy;
      readonly origin: Origin;
      readonly extraDropped: number;
      readonly requests: number;
      readonly percent: number;
      readonly perSecondAtPeakReads: number;
    }[];
  } | null;
  /** Tail-aware at several percentiles; empty unless tail-aware is selected. */
  readonly tailSweep: readonly {
    readonly percentile: number;
    readonly tariffMs: number;
    readonly measurementMs: number;
    readonly healthyDropped: number;
    readonly slowMeasurementFailures: number;
    readonly slowSlotsHeld: number;
  }[];
  /** Tariff-slow only; empty when that regime is not selected. */
  readonly sensitivity: readonly {
    readonly minutes: number;
    readonly timesPerMonth: number;
    readonly monthlyMinutes: number;
    readonly allowancePercent: number;
  }[];
}

function toRow(regime: Regime, policy: SplitPolicy, inputs: BudgetInputs): ChainRow {
  const r = runChain({ regime, policy, requests: inputs.requests, tailPercentile: inputs.tailPercentile });
  return {
    regime,
    policy,
    origin: originOf(policy),
    answered: r.answered,
    dropped: r.dropped,
    failures: r.failures,
    medianMs: r.medianMs,
    worstMs: r.worstMs,
    meanMs: r.meanMs,
    slotsHeld: slotsHeld(r.meanMs),
    wastedMs: r.wastedMs,
  };
}

/** Builds every table of `budget` for the selected policies and regimes. */
export function buildBudgetReport(inputs: BudgetInputs = DEFAULT_BUDGET_INPUTS): BudgetReport {
  const { requests, policies, regimes, tailPercentile: q } = inputs;
  const runs = regimes.flatMap((regime) => policies.map((policy) => toRow(regime, policy, inputs)));

  const busySlots = !regimes.includes('tariff-slow')
    ? []
    : policies.map((policy) => {
        const off = runChain({ regime: 'tariff-slow', policy, requests, tailPercentile: q, cancel: false });
        const on = runChain({ regime: 'tariff-slow', policy, requests, tailPercentile: q, cancel: true });
        const callerSlots = slotsHeld(off.meanMs);
        const abandonedSlots = slotsHeld(off.wastedMs / off.requests);
        return {
          policy,
          origin: originOf(policy),
          callerSlots,
          abandonedSlots,
          totalWithoutCancel: callerSlots + abandonedSlots,
          totalWithCancel: slotsHeld(on.meanMs) + slotsHeld(on.wastedMs / on.requests),
        };
      });

  let healthyDayCost: BudgetReport['healthyDayCost'] = null;
  if (regimes.includes('healthy')) {
    const greedy = runChain({ regime: 'healthy', policy: 'greedy', requests });
    const bytesPerSecondAtPeak = TRACKING.peakEdgeRequestsPerSecond * SUBCALLS_PER_REQUEST * DEADLINE_FIELD_BYTES;
    healthyDayCost = {
      deadlineBytesPerRequest: SUBCALLS_PER_REQUEST * DEADLINE_FIELD_BYTES,
      shareOfResponsePercent: ((SUBCALLS_PER_REQUEST * DEADLINE_FIELD_BYTES) / TRACKING.responseBytes) * 100,
      bytesPerSecondAtPeak,
      kibPerSecondAtPeak: bytesPerSecondAtPeak / 1024,
      extraDrops: policies
        .filter((p) => p !== 'greedy')
        .map((policy) => {
          const r = runChain({ regime: 'healthy', policy, requests, tailPercentile: q });
          const extraDropped = r.dropped - greedy.dropped;
          return {
            policy,
            origin: originOf(policy),
            extraDropped,
            requests: r.requests,
            percent: (extraDropped / r.requests) * 100,
            perSecondAtPeakReads: (TRACKING.peakReadsPerSecond * extraDropped) / r.requests,
          };
        }),
    };
  }

  const tailSweep = !policies.includes('tail-aware')
    ? []
    : TAIL_SWEEP.map((percentile) => {
        const [tariffMs, measurementMs] = pricingShares('tail-aware', percentile);
        const healthy = runChain({ regime: 'healthy', policy: 'tail-aware', requests, tailPercentile: percentile });
        const slow = runChain({ regime: 'tariff-slow', policy: 'tail-aware', requests, tailPercentile: percentile });
        return {
          percentile,
          tariffMs,
          measurementMs,
          healthyDropped: healthy.dropped,
          slowMeasurementFailures: slow.failures.measurement,
          slowSlotsHeld: slotsHeld(slow.meanMs),
        };
      });

  const sensitivity = !regimes.includes('tariff-slow')
    ? []
    : SLOWDOWN_CASES.map(([minutes, timesPerMonth]) => ({
        minutes,
        timesPerMonth,
        monthlyMinutes: minutes * timesPerMonth,
        allowancePercent: ((minutes * timesPerMonth) / TRACKING.monthlyAllowanceMinutes) * 100,
      }));

  return {
    command: 'budget',
    // Rebuilt so the JSON key order never depends on how the caller built its object.
    inputs: { requests, policies: [...policies], regimes: [...regimes], tailPercentile: q },
    chain: {
      thresholdMs: TRACKING.thresholdMs,
      gatewayShareMs: GATEWAY_SHARE_MS,
      branchBudgetMs: BRANCH_BUDGET_MS,
      ordinaryMs: ORDINARY_MS,
      tailMs: {
        deliveryOps: stepLatency('deliveryOps', q).tail,
        tariff: stepLatency('tariff', q).tail,
        measurement: stepLatency('measurement', q).tail,
      },
    },
    splits: policies.map((policy) => {
      const [tariffMs, measurementMs] = pricingShares(policy, q);
      return { policy, origin: originOf(policy), tariffMs, measurementMs };
    }),
    runs,
    busySlots,
    healthyDayCost,
    tailSweep,
    sensitivity,
  };
}
