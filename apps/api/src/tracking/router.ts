import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import {
  answerBy,
  createBudgetMetrics,
  createKeepAliveAgent,
  createSplitPolicy,
  deadlineMiddleware,
  LoadShedder,
  requestDeadline,
  type Clock,
  type Deadline,
  type RequestOutcome,
  type Timer,
} from '@notify/budget-chain';
import type { TrackingConfig } from './config';
import { createHttpTrackingStores, type TrackingStores } from './http-stores';
import { watchStores } from './progress';
import { runTrackingQuery } from './query';
import { failureAnswer, guardAnswer, shedAnswer } from './responses';
import { sendJson } from './send-json';
import { checkShipmentId } from './shipment-id';
import { warmUpTracking, type WarmUpReport } from './warm-up';

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
  /** @defaultValue a LoadShedder on this process's event-loop delay, from config; owned (and stopped) by the router */
  loadShedder?: LoadShedder;
  /** The three reads. @defaultValue HTTP reads of config.storeUrls over `dispatcher` */
  stores?: TrackingStores;
}

/**
 * How long a store read that ran out of time may still answer before its socket is closed.
 * The stores stop at the deadline the read propagated (x-request-timeout-ms, less their 1 ms
 * transit allowance) and answer 504, so their answer lands about when our timer fires, or as
 * late as a busy machine runs their timer and our read. Inside this grace the 504 is drained
 * and the keep-alive socket reused; closing it instead cost ~20 % of the api's CPU under AY10
 * (socket close, reconnect, and the abort error's source-mapped stack): see
 * docs/benchmarks-tracking.md. The query's answer never waits for it; a store that ignores
 * its deadline is cut off this much later (a cancellation still closes at once).
 */
export const STORE_CANCEL_GRACE_MS = 100;

/**
 * An Express router plus `warmUp()`, which runs config.warmUp queries against the stores
 * (the api calls it before it reports ready), and `close()`, which releases the store
 * connections it opened.
 */
export type TrackingRouter = Router & { warmUp(): Promise<WarmUpReport>; close(): Promise<void> };

/**
 * `GET /:shipmentId` (mounted by the api at /v1/tracking): the delivery-ops read in parallel
 * with tariff -> measurement -> fee, all inside the request's budget (config.budgetMs, or a
 * client's smaller `x-request-timeout-ms`), answering 200 with the record, 504 naming the
 * step that ran out, 502 naming the store that failed, 400 for a bad id or header, or 503
 * OVERLOADED with Retry-After, before any work, while the process could not keep the deadline.
 *
 * The answer leaves by the deadline: a guard timer answers 504 at budget - (answer reserve +
 * the loop's measured delay) if the query has not answered yet, naming the read still running.
 */
export function createTrackingRouter(deps: TrackingRouterDeps): TrackingRouter {
  const { config } = deps;
  const logger = deps.logger.child({ component: 'tracking' });
  const metrics = createBudgetMetrics(deps.registry);
  const policy = createSplitPolicy(config.policy, { expectedMs: config.expectedLatenciesMs, tailMs: config.tailLatenciesMs });
  const ownsDispatcher = deps.dispatcher === undefined;
  const dispatcher = deps.dispatcher ?? createKeepAliveAgent({ connections: config.storeConnections });
  const stores =
    deps.stores ??
    createHttpTrackingStores({ storeUrls: config.storeUrls, dispatcher, cancel: config.cancel, cancelGraceMs: STORE_CANCEL_GRACE_MS, observer: metrics });
  const ownsShedder = deps.loadShedder === undefined;
  const shedder =
    deps.loadShedder ??
    new LoadShedder({
      maxLoopDelayMs: config.shedLoopDelayMs,
      maxInFlight: config.maxInFlight,
      onWindow: (ms) => metrics.loopDelay.set(ms / 1000),
    });
  const retryAfter = { 'retry-after': String(config.shedRetryAfterS) };
  // The loop's delay counts once more at the end; capped so one bad window cannot eat the steps' time.
  const maxLagReserveMs = config.gatewayShareMs;

  const shedGate = (_req: Request, res: Response, next: NextFunction): void => {
    const reason = shedder.admit();
    if (reason !== undefined) {
      metrics.recordShed(reason, policy.name);
      const answer = shedAnswer(reason, config.shedRetryAfterS);
      sendJson(res, answer.status, answer.body, retryAfter);
      return;
    }
    res.once('close', () => shedder.leave());
    next();
  };

  const router = Router();
  router.get(
    '/:shipmentId',
    shedGate,
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
        sendJson(res, 400, {
          error: { code: 'VALIDATION_FAILED', message: `invalid request: shipmentId ${id.reason}`, details: [{ field: 'shipmentId', reason: id.reason }] },
        });
        return;
      }
      const answer = (status: number, outcome: RequestOutcome, body: unknown): void => {
        metrics.recordRequest(outcome, policy.name, deadline.elapsedMs(), deadline.budgetMs);
        sendJson(res, status, body);
      };
      const watched = watchStores(stores, deadline.clock);
      const guard = answerBy(deadline, config.answerReserveMs + Math.min(shedder.loopDelayMs, maxLagReserveMs), () => {
        if (res.destroyed || res.writableEnded) {
          metrics.recordRequest('cancelled', policy.name, deadline.elapsedMs());
          return;
        }
        const late = watched.blame();
        const budget = {
          policy: policy.name,
          budgetMs: deadline.budgetMs,
          gatewayShareMs: config.gatewayShareMs,
          elapsedMs: deadline.elapsedMs(),
          answeredBy: 'deadline-guard' as const,
        };
        const guarded = guardAnswer(late, budget);
        answer(guarded.status, guarded.outcome, guarded.body);
        // Stop the reads nobody will use (their outcomes are still counted by step), as an
        // expiry, not a cancellation: the guard answers at the deadline (less its reserve), and
        // every read's propagated deadline ends by then or within that reserve, so its store
        // stops and answers 504, drained inside the cancel grace on the same socket. Cancelling
        // closed one socket per guarded answer, and the reconnects cost the api CPU exactly when
        // it was late (docs/benchmarks-tracking.md).
        deadline.expireNow('tracking answered at its deadline');
      });
      try {
        const result = await runTrackingQuery(deadline, id.value, watched.stores, {
          policy,
          gatewayShareMs: config.gatewayShareMs,
          stopOnFailure: config.stopOnFailure,
          observer: metrics,
        });
        if (!guard.claim()) return; // the guard answered at the deadline
        if (res.destroyed || res.writableEnded) {
          // The client went away: its signal already cancelled the store calls; nobody to answer.
          metrics.recordRequest('cancelled', policy.name, deadline.elapsedMs());
          return;
        }
        if (result.ok) {
          answer(200, 'answered', { ...result.record, budget: { ...result.budget, elapsedMs: deadline.elapsedMs() } });
          return;
        }
        const failure = failureAnswer(result);
        logger.debug({ shipmentId: id.value, step: result.step, status: failure.status }, 'tracking query failed');
        answer(failure.status, failure.outcome, failure.body);
      } catch (error: unknown) {
        logger.error({ err: error, shipmentId: id.value }, 'tracking query crashed');
        if (guard.claim() && !res.headersSent && !res.destroyed)
          sendJson(res, 500, { error: { code: 'INTERNAL', message: 'tracking query failed unexpectedly' } });
      } finally {
        guard.dispose();
      }
    },
  );
  // Warm-up reads go through the same sockets but outside the request metrics: they are not callers' queries.
  const warmUpStores =
    deps.stores ?? createHttpTrackingStores({ storeUrls: config.storeUrls, dispatcher, cancel: config.cancel, cancelGraceMs: STORE_CANCEL_GRACE_MS });
  const warmUpQuery = async (deadline: Deadline, shipmentId: string): Promise<boolean> => {
    const result = await runTrackingQuery(deadline, shipmentId, warmUpStores, {
      policy,
      gatewayShareMs: config.gatewayShareMs,
      stopOnFailure: config.stopOnFailure,
    });
    JSON.stringify(result.ok ? { ...result.record, budget: result.budget } : failureAnswer(result).body); // the answer's serialiser, warmed too
    return result.ok;
  };
  return Object.assign(router, {
    warmUp: () => warmUpTracking(warmUpQuery, { ...config.warmUp, budgetMs: config.budgetMs, signal: deps.shutdownSignal }),
    async close(): Promise<void> {
      if (ownsShedder) shedder.stop();
      if (ownsDispatcher) await dispatcher.destroy();
    },
  });
}
