import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import {
  createBudgetMetrics,
  createKeepAliveAgent,
  createSplitPolicy,
  deadlineMiddleware,
  requestDeadline,
  type Clock,
  type Timer,
} from '@notify/budget-chain';
import type { TrackingConfig } from './config';
import { createHttpTrackingStores } from './http-stores';
import { runTrackingQuery } from './query';
import { failureAnswer } from './responses';
import { checkShipmentId } from './shipment-id';

export interface TrackingRouterDeps {
  config: TrackingConfig;
  registry: Registry;
  logger: Logger;
  /** HTTP dispatcher for store calls. @defaultValue a keep-alive Agent owned (and closed) by the router */
  dispatcher?: Dispatcher;
  clock?: Clock;
  timer?: Timer;
  /** A long-lived signal (e.g. shutdown) every request's deadline follows. */
  shutdownSignal?: AbortSignal;
}

/** An Express router plus `close()`, which releases the store connections it opened. */
export type TrackingRouter = Router & { close(): Promise<void> };

/**
 * `GET /:shipmentId` (mounted by the api at /v1/tracking): the delivery-ops read in parallel
 * with tariff -> measurement -> fee, all inside the request's budget (config.budgetMs, or a
 * client's smaller `x-request-timeout-ms`), answering 200 with the record, 504 naming the
 * step that ran out, 502 naming the store that failed, or 400 for a bad id or header.
 */
export function createTrackingRouter(deps: TrackingRouterDeps): TrackingRouter {
  const { config } = deps;
  const logger = deps.logger.child({ component: 'tracking' });
  const metrics = createBudgetMetrics(deps.registry);
  const policy = createSplitPolicy(config.policy, { expectedMs: config.expectedLatenciesMs, tailMs: config.tailLatenciesMs });
  const ownsDispatcher = deps.dispatcher === undefined;
  const dispatcher = deps.dispatcher ?? createKeepAliveAgent({ connections: config.storeConnections });
  const stores = createHttpTrackingStores({ storeUrls: config.storeUrls, dispatcher, cancel: config.cancel, observer: metrics });

  const router = Router();
  router.get(
    '/:shipmentId',
    deadlineMiddleware({
      step: 'tracking',
      transitAllowanceMs: config.transitAllowanceMs,
      defaultBudgetMs: config.budgetMs,
      maxBudgetMs: config.budgetMs,
      clock: deps.clock,
      timer: deps.timer,
      parentSignal: deps.shutdownSignal,
    }),
    async (req: Request, res: Response) => {
      const deadline = requestDeadline(res);
      const id = checkShipmentId(req.params.shipmentId);
      if (!id.ok) {
        metrics.recordRequest('invalid', policy.name, deadline.elapsedMs());
        res.status(400).json({
          error: { code: 'VALIDATION_FAILED', message: `invalid request: shipmentId ${id.reason}`, details: [{ field: 'shipmentId', reason: id.reason }] },
        });
        return;
      }
      try {
        const result = await runTrackingQuery(deadline, id.value, stores, {
          policy,
          gatewayShareMs: config.gatewayShareMs,
          stopOnFailure: config.stopOnFailure,
          observer: metrics,
        });
        if (res.destroyed || res.writableEnded) {
          // The client went away: its signal already cancelled the store calls; nobody to answer.
          metrics.recordRequest('cancelled', policy.name, deadline.elapsedMs());
          return;
        }
        if (result.ok) {
          metrics.recordRequest('answered', policy.name, deadline.elapsedMs());
          res.status(200).json({ ...result.record, budget: { ...result.budget, elapsedMs: deadline.elapsedMs() } });
          return;
        }
        const answer = failureAnswer(result);
        metrics.recordRequest(answer.outcome, policy.name, deadline.elapsedMs());
        logger.debug({ shipmentId: id.value, step: result.step, status: answer.status }, 'tracking query failed');
        res.status(answer.status).json(answer.body);
      } catch (error: unknown) {
        logger.error({ err: error, shipmentId: id.value }, 'tracking query crashed');
        if (!res.headersSent && !res.destroyed) res.status(500).json({ error: { code: 'INTERNAL', message: 'tracking query failed unexpectedly' } });
      }
    },
  );

  return Object.assign(router, {
    async close(): Promise<void> {
      if (ownsDispatcher) await dispatcher.destroy();
    },
  });
}
