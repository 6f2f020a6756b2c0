import { createAbandonedWorkMetric, TRACKING_STEPS, type AbandonedWorkMetric, type TrackingStep } from '@notify/budget-chain';
import type { Registry } from 'prom-client';

/** How one simulated read ended. */
export type WorkEnd = 'completed' | 'stopped_at_deadline' | 'stopped_on_disconnect' | 'expired_on_arrival' | 'failed';

export interface StoreCounters {
  requests: number;
  completed: number;
  stoppedAtDeadline: number;
  stoppedOnDisconnect: number;
  expiredOnArrival: number;
  failed: number;
  /** Reads that kept working after their caller gave up. */
  abandonedRequests: number;
  /** Work done after the caller gave up (ms): the seed's "wasted work". */
  abandonedWorkMs: number;
}

const FIELD: Record<WorkEnd, keyof StoreCounters> = {
  completed: 'completed',
  stopped_at_deadline: 'stoppedAtDeadline',
  stopped_on_disconnect: 'stoppedOnDisconnect',
  expired_on_arrival: 'expiredOnArrival',
  failed: 'failed',
};

function zero(): StoreCounters {
  return { requests: 0, completed: 0, stoppedAtDeadline: 0, stoppedOnDisconnect: 0, expiredOnArrival: 0, failed: 0, abandonedRequests: 0, abandonedWorkMs: 0 };
}

/** Per-store counters for /control/stats, mirrored into notify_tracking_abandoned_work_seconds_total. */
export class StoreStats {
  private counters: Record<TrackingStep, StoreCounters> = this.fresh();
  private readonly metric: AbandonedWorkMetric;
  inFlight = 0;

  constructor(registry: Registry) {
    this.metric = createAbandonedWorkMetric(registry);
  }

  started(store: TrackingStep): void {
    this.counters[store].requests += 1;
  }

  ended(store: TrackingStep, end: WorkEnd, abandonedMs: number): void {
    const c = this.counters[store];
    c[FIELD[end]] += 1;
    if (abandonedMs > 0) {
      c.abandonedRequests += 1;
      c.abandonedWorkMs += abandonedMs;
      this.metric.record(store, abandonedMs);
    }
  }

  /** Clears the counters shown by /control/stats (the Prometheus counter stays monotonic). */
  reset(): void {
    this.counters = this.fresh();
  }

  snapshot(): { stores: Record<TrackingStep, StoreCounters>; abandonedWorkMs: number } {
    const stores = structuredClone(this.counters);
    for (const store of TRACKING_STEPS) stores[store].abandonedWorkMs = Math.round(stores[store].abandonedWorkMs * 1000) / 1000;
    const abandonedWorkMs = TRACKING_STEPS.reduce((sum, store) => sum + stores[store].abandonedWorkMs, 0);
    return { stores, abandonedWorkMs: Math.round(abandonedWorkMs * 1000) / 1000 };
  }

  private fresh(): Record<TrackingStep, StoreCounters> {
    return { 'delivery-ops': zero(), tariff: zero(), measurement: zero() };
  }
}
