import { runSequence, TRACKING_STEPS, type BudgetObserver, type Deadline, type SplitPolicy, type StepOutcome, type TrackingStep } from '@notify/budget-chain';
import type { TrackingStores } from './http-stores';
import { computeFee, type DeliveryStatus, type Fee, type Measurement, type Tariff } from './records';

export interface TrackingQueryOptions {
  readonly policy: SplitPolicy;
  /** Kept back from the request's remaining time for the gateway's own work. */
  readonly gatewayShareMs: number;
  /** Stop at the first failed step and cancel the sibling branch (false: the seed's "attempt all"). */
  readonly stopOnFailure: boolean;
  readonly observer?: BudgetObserver;
}

export interface StepSummary {
  readonly step: TrackingStep;
  readonly outcome: StepOutcome<unknown>['kind'];
  readonly called: boolean;
  readonly timeoutMs: number;
  readonly elapsedMs: number;
}

export interface BudgetInfo {
  readonly policy: string;
  readonly budgetMs: number;
  readonly gatewayShareMs: number;
  readonly branchBudgetMs: number;
  /** Planned shares of the pricing branch (ms). */
  readonly shares: Readonly<Record<string, number>>;
  readonly elapsedMs: number;
  readonly steps: readonly StepSummary[];
}

export interface TrackingRecord {
  readonly shipmentId: string;
  readonly delivery: DeliveryStatus;
  readonly tariff: Tariff;
  readonly measurement: Measurement;
  readonly fee: Fee;
}

export type TrackingQueryResult =
  | { readonly ok: true; readonly record: TrackingRecord; readonly budget: BudgetInfo }
  | { readonly ok: false; readonly step: TrackingStep; readonly error: unknown; readonly budget: BudgetInfo };

const ORDER = new Map<string, number>(TRACKING_STEPS.map((step, i) => [step, i]));

/**
 * The tracking query under a budget: the delivery-ops read in parallel with the pricing
 * branch (tariff, then measurement, split by `policy`), both inside what is left of the
 * request after the gateway's share. Never throws for a step's failure: the result names
 * the step that failed first (the one whose time ran out, not the ones queued behind it).
 */
export async function runTrackingQuery(
  request: Deadline,
  shipmentId: string,
  stores: TrackingStores,
  options: TrackingQueryOptions,
): Promise<TrackingQueryResult> {
  const branchBudgetMs = Math.max(0, request.remainingMs() - options.gatewayShareMs);
  const branches = request.child('branches', branchBudgetMs);
  const sequenceOptions = { stopOnFailure: options.stopOnFailure, observer: options.observer };
  // Fail fast across branches only when asked: then the sibling's in-flight call is cancelled.
  const stopSiblingOnFailure = <R extends { outcomes: readonly StepOutcome<unknown>[] }>(result: R): R => {
    if (options.stopOnFailure && result.outcomes.some((o) => !o.ok)) branches.cancel('a sibling branch failed');
    return result;
  };
  try {
    const [deliveryBranch, pricingBranch] = await Promise.all([
      runSequence(branches, options.policy, [{ step: 'delivery-ops', run: (c) => stores.deliveryOps(c, shipmentId) }] as const, sequenceOptions).then(
        stopSiblingOnFailure,
      ),
      runSequence(
        branches,
        options.policy,
        [
          { step: 'tariff', run: (c) => stores.tariff(c, shipmentId) },
          { step: 'measurement', run: (c) => stores.measurement(c, shipmentId) },
        ] as const,
        sequenceOptions,
      ).then(stopSiblingOnFailure),
    ]);
    const [delivery] = deliveryBranch.outcomes;
    const [tariff, measurement] = pricingBranch.outcomes;
    const outcomes: readonly StepOutcome<unknown>[] = [delivery, tariff, measurement];
    const budget: BudgetInfo = {
      policy: options.policy.name,
      budgetMs: request.budgetMs,
      gatewayShareMs: options.gatewayShareMs,
      branchBudgetMs,
      shares: pricingBranch.shares,
      elapsedMs: request.elapsedMs(),
      steps: outcomes.map((o) => ({ step: o.step as TrackingStep, outcome: o.kind, called: o.called, timeoutMs: o.timeoutMs, elapsedMs: o.elapsedMs })),
    };
    if (delivery.ok && tariff.ok && measurement.ok) {
      const record = {
        shipmentId,
        delivery: delivery.value,
        tariff: tariff.value,
        measurement: measurement.value,
        fee: computeFee(tariff.value, measurement.value),
      };
      return { ok: true, record, budget };
    }
    const failure = firstFailure(outcomes);
    return { ok: false, step: failure.step as TrackingStep, error: failure.error, budget };
  } finally {
    branches.dispose();
  }
}

type Failed = Extract<StepOutcome<unknown>, { ok: false }>;

/**
 * The step to blame: the earliest failure in time (ties: chain order). Cancellations we
 * caused ourselves (fail-fast) are consequences, so they only count when nothing else failed.
 */
function firstFailure(outcomes: readonly StepOutcome<unknown>[]): Failed {
  const failed = outcomes.filter((o): o is Failed => !o.ok);
  const causes = failed.some((o) => o.kind !== 'cancelled') ? failed.filter((o) => o.kind !== 'cancelled') : failed;
  const sorted = [...causes].sort((a, b) => a.endedAt - b.endedAt || (ORDER.get(a.step) ?? 0) - (ORDER.get(b.step) ?? 0));
  return sorted[0] as Failed;
}
