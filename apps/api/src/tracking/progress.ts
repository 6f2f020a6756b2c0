import { isDeadlineExceeded, type Clock, type StepContext, type TrackingStep } from '@notify/budget-chain';
import type { TrackingStores } from './http-stores';

interface Running {
  readonly startedAt: number;
  readonly timeoutMs: number;
}

export interface LateStep {
  readonly step: TrackingStep | 'tracking';
  /** How long the step ran (until now if still running; 0 for the gateway's own work). */
  readonly runningMs: number;
  readonly timeoutMs: number;
  /** True when the step already ran out of its time; false when it is still running. */
  readonly ranOut: boolean;
}

/** The stores of one request, watched: which reads ran out or still run, for an answer written before the query's own. */
export interface WatchedStores {
  readonly stores: TrackingStores;
  /**
   * The step to blame, as the query itself would: the first read that ran out of time;
   * else the running read furthest past its timeout; else the gateway's own work.
   */
  blame(): LateStep;
}

export function watchStores(stores: TrackingStores, clock: Clock): WatchedStores {
  const running = new Map<TrackingStep, Running>();
  let firstRanOut: LateStep | undefined;
  const watch = <T>(step: TrackingStep, context: StepContext, read: () => Promise<T>): Promise<T> => {
    const startedAt = clock.now();
    running.set(step, { startedAt, timeoutMs: context.timeoutMs });
    return read().then(
      (value) => {
        running.delete(step);
        return value;
      },
      (error: unknown) => {
        running.delete(step);
        if (firstRanOut === undefined && isDeadlineExceeded(error)) {
          firstRanOut = { step, runningMs: clock.now() - startedAt, timeoutMs: context.timeoutMs, ranOut: true };
        }
        throw error;
      },
    );
  };
  return {
    stores: {
      deliveryOps: (c, id) => watch('delivery-ops', c, () => stores.deliveryOps(c, id)),
      tariff: (c, id) => watch('tariff', c, () => stores.tariff(c, id)),
      measurement: (c, id) => watch('measurement', c, () => stores.measurement(c, id)),
    },
    blame() {
      if (firstRanOut !== undefined) return firstRanOut;
      const now = clock.now();
      let late: LateStep = { step: 'tracking', runningMs: 0, timeoutMs: 0, ranOut: false };
      let worst = Number.NEGATIVE_INFINITY;
      for (const [step, r] of running) {
        const over = now - r.startedAt - r.timeoutMs;
        if (over > worst) {
          worst = over;
          late = { step, runningMs: now - r.startedAt, timeoutMs: r.timeoutMs, ranOut: false };
        }
      }
      return late;
    },
  };
}
