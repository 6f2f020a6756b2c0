import type { Request, Response, Router } from 'express';
import type { Logger } from 'pino';
import {
  AbandonmentWatch,
  deadlineMiddleware,
  isDeadlineExceeded,
  requestDeadline,
  TRACKING_STEPS,
  type Clock,
  type Timer,
  type TrackingStep,
} from '@notify/budget-chain';
import type { TrackingStoresConfig } from './config';
import type { StoresState } from './state';
import { storeRecord } from './records';
import type { WorkEnd } from './stats';

export interface StoreRouteDeps {
  readonly config: TrackingStoresConfig;
  readonly state: StoresState;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly shutdown: AbortSignal;
  readonly logger: Logger;
}

function sendIfOpen(res: Response, status: number, body: unknown): void {
  if (!res.headersSent && !res.destroyed) res.status(status).json(body);
}

/**
 * One simulated read: "work" for the store's next cycle duration, then answer. The request's
 * deadline signal (propagated deadline or disconnect) tells the store its caller gave up;
 * when cancellation is honoured the work stops there, otherwise it runs to the end and the
 * time past the give-up is counted as abandoned work.
 */
function handleRead(store: TrackingStep, deps: StoreRouteDeps) {
  return (req: Request, res: Response): void => {
    const { state, clock, timer } = deps;
    const deadline = requestDeadline(res);
    const id = String(req.params.id);
    state.stats.started(store);
    if (deadline.aborted && state.honourCancellation) {
      state.stats.ended(store, 'expired_on_arrival', 0);
      sendIfOpen(res, 504, { error: { code: 'DEADLINE_EXCEEDED', store, message: `${store}: the propagated deadline had passed on arrival` } });
      return;
    }
    if (store === 'tariff' && state.tariffMode === 'error') {
      state.stats.ended(store, 'failed', 0);
      sendIfOpen(res, 500, { error: { code: 'STORE_FAILURE', store, message: 'tariff store failure (injected)' } });
      return;
    }

    const duration = state.latency.next(store, state.tariffMode);
    const watch = new AbandonmentWatch(deadline.signal, clock);
    state.stats.inFlight += 1;

    const finish = (end: WorkEnd): void => {
      deadline.signal.removeEventListener('abort', onAbort);
      state.stats.inFlight -= 1;
      state.stats.ended(store, end, watch.finish());
      if (end === 'completed') sendIfOpen(res, 200, storeRecord(store, id));
      else if (end === 'stopped_at_deadline') {
        sendIfOpen(res, 504, { error: { code: 'DEADLINE_EXCEEDED', store, message: `${store}: stopped at the propagated deadline` } });
      }
      // stopped_on_disconnect: nobody is listening any more.
    };
    const onAbort = (): void => {
      if (!state.honourCancellation && !deps.shutdown.aborted) return; // keep working, the watch keeps time
      timer.clear(handle);
      const end = isDeadlineExceeded(deadline.signal.reason) ? 'stopped_at_deadline' : 'stopped_on_disconnect';
      deps.logger.debug({ store, end, workedMs: clock.now() - deadline.startedAt, plannedMs: duration }, 'simulated read stopped');
      finish(end);
    };
    const handle = timer.set(() => finish('completed'), duration);
    deadline.signal.addEventListener('abort', onAbort, { once: true });
    if (deadline.aborted) onAbort(); // expired on arrival while not honouring: still simulated, still timed
  };
}

/** Mounts GET /stores/<store>/:id for the three stores, each behind its own deadline middleware. */
export function mountStoreRoutes(router: Router, deps: StoreRouteDeps): void {
  for (const store of TRACKING_STEPS) {
    router.get(
      `/stores/${store}/:id`,
      deadlineMiddleware({
        step: store,
        transitAllowanceMs: deps.config.transitAllowanceMs,
        maxBudgetMs: deps.config.maxBudgetMs,
        clock: deps.clock,
        timer: deps.timer,
        parentSignal: deps.shutdown,
      }),
      handleRead(store, deps),
    );
  }
}
