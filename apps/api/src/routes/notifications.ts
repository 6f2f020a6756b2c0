import { Router, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import { NotifyError, batchRequestSchema, parseOrThrow, rateLimitHeaders, type TenantLimitState } from '@notify/core';
import {
  CancelService,
  createNotificationLookup,
  isBacklogFullError,
  isTenantLimitError,
  listScheduled,
  type CancelServiceDeps,
  type IntakeService,
} from '@notify/pipeline';
import { disabledHistory, type HistoryAccess } from '../history-access';
import { sendJson } from '../tracking/send-json';
import { DEFAULT_MAX_LIST_LIMIT, parseEventIdQuery, parseListQuery } from './history-query';

const ID_PATTERN = /^[0-9a-f]{32}$/;

function requireId(id: string): void {
  if (!ID_PATTERN.test(id)) {
    throw new NotifyError('VALIDATION_FAILED', 'invalid notification id', { details: [{ field: 'id', reason: 'must be 32 lowercase hex characters' }] });
  }
}

/**
 * Content-Type header → is it application/json, for requests with a body (type-is parses the
 * header each time; a client sends the same one or two forever). Without a body `req.is` says
 * no whatever the header, so those are not cached (type-is's own body test, repeated here).
 */
const jsonTypes = new Map<string, boolean>();

function requireJson(req: Request): void {
  const type = req.headers['content-type'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
  let json = type !== undefined && hasBody ? jsonTypes.get(type) : undefined;
  if (json === undefined) {
    json = Boolean(req.is('application/json'));
    if (type !== undefined && hasBody) {
      if (jsonTypes.size >= 64) jsonTypes.clear();
      jsonTypes.set(type, json);
    }
  }
  if (!json) throw new NotifyError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
}

/** The tenant's RateLimit-Policy and RateLimit on an intake answer (none for a tenant without limits). */
const limitHeaders = (limit: TenantLimitState | undefined): Record<string, string> => (limit ? rateLimitHeaders(limit) : {});

/**
 * POST /v1/notifications: one notification, 202 accepted or 200 duplicate. A handler of its own
 * so the app can route the busiest request straight to it (app.ts), not through the router below.
 */
export function acceptOne(deps: { intake: IntakeService; isDraining: () => boolean }): (req: Request, res: Response) => Promise<void> {
  return async (req, res) => {
    if (deps.isDraining()) throw new NotifyError('SHUTTING_DOWN', 'this instance is shutting down; retry');
    requireJson(req);
    const result = await deps.intake.accept(res.locals.tenant as string, req.body).catch((error: unknown) => {
      // Refused by the tenant's limits: the answer says when to come back (Retry-After, RateLimit).
      if (isTenantLimitError(error)) res.set(rateLimitHeaders(error.limit, error.refusal));
      // Refused while the lanes are behind: come back once part of the backlog has drained.
      if (isBacklogFullError(error)) res.set('retry-after', String(error.retryAfterSeconds));
      throw error;
    });
    const duplicate = result.kind === 'duplicate';
    // sendJson, not res.json: no ETag hash of a body no one revalidates.
    sendJson(
      res,
      duplicate ? 200 : 202,
      { id: result.id, status: result.status, duplicate },
      { location: `/v1/notifications/${result.id}`, ...limitHeaders(result.limit) },
    );
  };
}

/** What DELETE needs beside the router's own deps: the cancel script, its counter and the webhook events. */
export type CancelRouteDeps = Pick<CancelServiceDeps, 'scripts' | 'metrics' | 'events'>;

/**
 * POST /v1/notifications          one notification: 202 accepted, 200 duplicate, 4xx with fields
 * POST /v1/notifications/batch    up to 1,000: per-item results in request order (429 items past the tenant's limits)
 * GET  /v1/notifications/:id      status, attempts, latency (this tenant's only): Redis while in flight, the history after
 * GET  /v1/notifications          this tenant's finished notifications from the history, filtered, newest first, by pages
 *                                 (status=scheduled: the ones waiting for their sendAt, from Redis, soonest first)
 * DELETE /v1/notifications/:id     cancel: 200 canceled (again: idempotent), 409 naming the state, 404
 * DELETE /v1/notifications?eventId= cancel every recipient's notification of one event: counts
 */
export function notificationsRouter(deps: {
  intake: IntakeService;
  redis: Redis;
  isDraining: () => boolean;
  history?: HistoryAccess;
  maxListLimit?: number;
  /** The cancel's terminal scripts and webhook events; without it DELETE is not served. */
  cancel?: CancelRouteDeps;
}): Router {
  const router = Router();
  const history = deps.history ?? disabledHistory();
  const maxListLimit = deps.maxListLimit ?? DEFAULT_MAX_LIST_LIMIT;
  const lookup = createNotificationLookup({ redis: deps.redis, history, partitions: deps.intake.partitions });
  const cancel = deps.cancel
    ? new CancelService({ redis: deps.redis, lookup, partitions: deps.intake.partitions, parked: history.parked, ...deps.cancel })
    : undefined;
  const refuseWhileDraining = () => {
    if (deps.isDraining()) throw new NotifyError('SHUTTING_DOWN', 'this instance is shutting down; retry');
  };

  router.post('/', acceptOne(deps));

  router.post('/batch', async (req, res) => {
    refuseWhileDraining();
    requireJson(req);
    const { notifications } = parseOrThrow(batchRequestSchema, req.body);
    const { results, limit, retryAfterSeconds } = await deps.intake.acceptBatch(res.locals.tenant as string, notifications);
    const count = (predicate: (r: (typeof results)[number]) => boolean) => results.filter(predicate).length;
    sendJson(
      res,
      200,
      {
        accepted: count((r) => r.httpStatus === 202),
        duplicates: count((r) => r.httpStatus === 200),
        rejected: count((r) => r.httpStatus >= 400),
        results,
      },
      // Items refused because the lanes are behind (503 each): when to offer them again.
      { ...limitHeaders(limit), ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }) },
    );
  });

  router.get('/', async (req, res) => {
    const filter = parseListQuery(req.query, { maxLimit: maxListLimit });
    const tenant = res.locals.tenant as string;
    // Scheduled ones wait in Redis (far-future ones parked in PostgreSQL with the history on); finished ones are in the history.
    if (filter.status === 'scheduled') res.json(await listScheduled(deps.redis, deps.intake.partitions, tenant, filter, history.parked));
    else res.json(await history.list(tenant, filter));
  });

  router.get('/:id', async (req, res) => {
    const id = req.params.id;
    requireId(id);
    const tenant = res.locals.tenant as string;
    // Redis while in flight (and until archived), then the history: one of the two has it.
    const view = await lookup.get(tenant, id);
    if (!view) throw new NotifyError('NOT_FOUND', `no notification ${id} for this tenant (unknown or expired)`);
    res.json(view);
  });

  if (cancel) {
    router.delete('/:id', async (req, res) => {
      refuseWhileDraining();
      const id = req.params.id;
      requireId(id);
      const outcome = await cancel.cancel(res.locals.tenant as string, id);
      if (outcome.kind === 'not-found') throw new NotifyError('NOT_FOUND', `no notification ${id} for this tenant (unknown or expired)`);
      if (outcome.kind === 'refused') {
        throw new NotifyError('NOT_CANCELABLE', `notification ${id} cannot be canceled: it is ${outcome.state}`, {
          details: [{ field: 'status', reason: outcome.state }],
        });
      }
      sendJson(res, 200, { id, status: 'canceled' });
    });

    router.delete('/', async (req, res) => {
      refuseWhileDraining();
      const eventId = parseEventIdQuery(req.query);
      sendJson(res, 200, { eventId, ...(await cancel.cancelEvent(res.locals.tenant as string, eventId)) });
    });
  }

  return router;
}
