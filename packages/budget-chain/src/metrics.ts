import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { BudgetObserver, StepEvent } from './observer';

/** Metric names, defined once. Never rename without updating dashboards and alerts. */
export const BUDGET_METRIC_NAMES = {
  stepDuration: 'notify_tracking_step_duration_seconds',
  timeouts: 'notify_tracking_timeouts_total',
  cancellations: 'notify_tracking_cancellations_total',
  abandonedWork: 'notify_tracking_abandoned_work_seconds_total',
  requests: 'notify_tracking_requests_total',
  requestDuration: 'notify_tracking_request_duration_seconds',
  shed: 'notify_tracking_shed_total',
  loopDelay: 'notify_tracking_event_loop_delay_seconds',
  lateAnswers: 'notify_tracking_late_answers_total',
} as const;

/** Request outcomes at the edge; bounded, used as a label. */
export type RequestOutcome = 'answered' | 'deadline_exceeded' | 'dependency_failed' | 'cancelled' | 'invalid' | 'shed';

/** Buckets around the seed's numbers: 6-14 ms medians, 40-100 ms tails, 60/90/120/180/200 ms shares. */
const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.02, 0.04, 0.06, 0.09, 0.12, 0.15, 0.18, 0.2, 0.25, 0.3, 0.5, 1];

/** prom-client throws on a second registration; a caller sharing a registry gets the first one. */
function getOrCreate<T>(registry: Registry, name: string, create: () => T): T {
  const existing = registry.getSingleMetric(name);
  return existing === undefined ? create() : (existing as unknown as T);
}

function counter<L extends string = never>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return getOrCreate(registry, name, () => new Counter({ name, help, labelNames, registers: [registry] }));
}

function histogram<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Histogram<L> {
  return getOrCreate(registry, name, () => new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS, registers: [registry] }));
}

export interface BudgetMetrics extends BudgetObserver {
  readonly stepDuration: Histogram<'step' | 'policy' | 'outcome'>;
  readonly timeouts: Counter<'step' | 'policy'>;
  readonly cancellations: Counter<'step'>;
  readonly requests: Counter<'outcome' | 'policy'>;
  readonly requestDuration: Histogram<'outcome' | 'policy'>;
  readonly shed: Counter<'reason'>;
  readonly loopDelay: Gauge;
  readonly lateAnswers: Counter;
  onStep(event: StepEvent): void;
  onCancelSent(step: string): void;
  recordRequest(outcome: RequestOutcome, policy: string, durationMs: number, budgetMs?: number): void;
  /** A request refused before any work (503 + Retry-After), by the signal that refused it. */
  recordShed(reason: string, policy: string): void;
}

/** The caller's metrics, registered on `registry` (never the global default). */
export function createBudgetMetrics(registry: Registry): BudgetMetrics {
  const n = BUDGET_METRIC_NAMES;
  const stepDuration = histogram(registry, n.stepDuration, 'Duration of one budgeted sub-call (step), by how it ended.', ['step', 'policy', 'outcome']);
  const timeouts = counter(registry, n.timeouts, 'Sub-calls that ran out of min(their share, what was left), by step and split policy.', ['step', 'policy']);
  const cancellations = counter(registry, n.cancellations, 'In-flight sub-calls whose request was aborted because the caller gave up.', ['step']);
  const requests = counter(registry, n.requests, 'Budgeted requests at the edge, by outcome and split policy.', ['outcome', 'policy']);
  const requestDuration = histogram(registry, n.requestDuration, 'End-to-end time of budgeted requests at the edge (W in L = lambda x W).', [
    'outcome',
    'policy',
  ]);
  const shed = counter(registry, n.shed, 'Requests refused with 503 + Retry-After before any work, by reason (loop_delay, in_flight).', ['reason']);
  const loopDelay = getOrCreate(
    registry,
    n.loopDelay,
    () =>
      new Gauge({
        name: n.loopDelay,
        help: 'Event-loop delay (p90) over the last load-shedding window: how late a deadline timer set now fires.',
        registers: [registry],
      }),
  );
  const lateAnswers = counter(
    registry,
    n.lateAnswers,
    'Answers written after their request budget had ended (should stay 0; shedding and the answer reserve exist to keep it there).',
  );
  return {
    stepDuration,
    timeouts,
    cancellations,
    requests,
    requestDuration,
    shed,
    loopDelay,
    lateAnswers,
    onStep(event: StepEvent) {
      stepDuration.observe({ step: event.step, policy: event.policy, outcome: event.outcome }, event.durationMs / 1000);
      if (event.outcome === 'deadline_exceeded') timeouts.inc({ step: event.step, policy: event.policy });
    },
    onCancelSent(step: string) {
      cancellations.inc({ step });
    },
    recordRequest(outcome, policy, durationMs, budgetMs) {
      requests.inc({ outcome, policy });
      requestDuration.observe({ outcome, policy }, durationMs / 1000);
      if (budgetMs !== undefined && durationMs > budgetMs) lateAnswers.inc();
    },
    recordShed(reason, policy) {
      shed.inc({ reason });
      requests.inc({ outcome: 'shed', policy });
    },
  };
}

export interface AbandonedWorkMetric {
  readonly counter: Counter<'store'>;
  /** Adds `ms` of work done after the caller gave up; zero is ignored. */
  record(store: string, ms: number): void;
}

/** The dependency's metric: work it kept doing after its caller gave up. */
export function createAbandonedWorkMetric(registry: Registry): AbandonedWorkMetric {
  const abandoned = counter(
    registry,
    BUDGET_METRIC_NAMES.abandonedWork,
    'Seconds of work a dependency kept doing after its caller had given up (deadline passed or disconnected).',
    ['store'],
  );
  return {
    counter: abandoned,
    record(store, ms) {
      if (ms > 0) abandoned.inc({ store }, ms / 1000);
    },
  };
}
