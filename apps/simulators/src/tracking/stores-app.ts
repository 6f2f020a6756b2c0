import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { monotonicClock, systemTimer, type Clock, type Timer } from '@notify/budget-chain';
import type { TariffMode, TrackingStoresConfig } from './config';
import { mountControlRoutes } from './control-routes';
import type { StoreCounters } from './stats';
import { StoresState } from './state';
import { mountStoreRoutes } from './store-routes';

export interface TrackingStoresOptions {
  config: TrackingStoresConfig;
  /** Where notify_tracking_abandoned_work_seconds_total is registered (never the global default). */
  registry: Registry;
  logger: Logger;
  clock?: Clock;
  timer?: Timer;
}

export interface TrackingStoresStats {
  tariffMode: TariffMode;
  honourCancellation: boolean;
  inFlight: number;
  stores: Record<'delivery-ops' | 'tariff' | 'measurement', StoreCounters>;
  abandonedWorkMs: number;
}

/** In-process handle on the same switches the control endpoints expose. */
export interface TrackingStoresControl {
  setTariffMode(mode: TariffMode): void;
  setHonourCancellation(honour: boolean): void;
  reset(): void;
  stats(): TrackingStoresStats;
}

export interface TrackingStores {
  app: express.Express;
  control: TrackingStoresControl;
  /** Stops all simulated work in flight (its callers get no answer). Call before closing the server. */
  close(): void;
}

/**
 * The three tracking stores (delivery-ops, tariff, measurement) in one Express app, playing
 * the seed's latency cycles and honouring the propagated deadline and the caller's
 * cancellation. The caller owns `listen()`.
 */
export function createTrackingStoresApp(options: TrackingStoresOptions): TrackingStores {
  const logger = options.logger.child({ component: 'tracking-stores' });
  const state = new StoresState(options.config, options.registry);
  const shutdown = new AbortController();
  const app = express();
  app.disable('x-powered-by');

  const router = express.Router();
  mountStoreRoutes(router, {
    config: options.config,
    state,
    clock: options.clock ?? monotonicClock,
    timer: options.timer ?? systemTimer,
    shutdown: shutdown.signal,
    logger,
  });
  mountControlRoutes(router, state);
  app.use(router);
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: 'no such route; stores are /stores/{delivery-ops,tariff,measurement}/:id' } });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : 500;
    if (status >= 500) logger.error({ err: error }, 'tracking stores request failed');
    if (!res.headersSent)
      res.status(status).json({ error: { code: status === 400 ? 'MALFORMED_JSON' : 'INTERNAL', message: error instanceof Error ? error.message : 'error' } });
  });

  return {
    app,
    control: {
      setTariffMode: (mode) => void (state.tariffMode = mode),
      setHonourCancellation: (honour) => void (state.honourCancellation = honour),
      reset: () => state.reset(),
      stats: () => ({ tariffMode: state.tariffMode, honourCancellation: state.honourCancellation, inFlight: state.stats.inFlight, ...state.stats.snapshot() }),
    },
    close: () => shutdown.abort(new Error('tracking stores shutting down')),
  };
}
