import type { Clock, StepContext, TrackingStep } from '@notify/budget-chain';
import type { TrackingStores } from './http-stores';

interface Running {
  readonly startedAt: number;
  readonly timeoutMs: number;
}

export interface LateStep {
  readonly step: TrackingStep | 'tracking';
  /** How long the step had been running when the answer left (0 for the gateway's own work). */
  readonly runningMs: number;
  readonly timeoutMs: number;
}

/** The stores of one request, watched: which reads are still running, for an answer written before they end. */
export interface WatchedStores {
  readonly stores: TrackingStores;
  /** The running read furthest past its own timeout, or the gateway itself when none is running. */
  slowest(): LateStep;
}

export function watchStores(stores: TrackingStores, clock: Clock): WatchedStores {
  const running = new Map<TrackingStep, Running>();
  const watch = <T>(step: TrackingStep, context: StepContext, read: () => Promise<T>): Promise<T> => {
    running.set(step, { startedAt: clock.now(), timeoutMs: context.timeoutMs });
    return read().finally(() => running.delete(step));
  };
  return {
    stores: {
      deliveryOps: (c, id) => watch('delivery-ops', c, () => stores.deliveryOps(c, id)),
      tariff: (c, id) => watch('tariff', c, () => stores.tariff(c, id)),
      measurement: (c, id) => watch('measurement', c, () => stores.measurement(c, id)),
    },
    slowest() {
      const now = clock.now();
      let late: LateStep = { step: 'tracking', runningMs: 0, timeoutMs: 0 };
      let worst = Number.NEGATIVE_INFINITY;
      for (const [step, r] of running) {
        const over = now - r.startedAt - r.timeoutMs;
        if (over > worst) {
          worst = over;
          late = { step, runningMs: now - r.startedAt, timeoutMs: r.timeoutMs };
        }
      }
      return late;
    },
  };
}
