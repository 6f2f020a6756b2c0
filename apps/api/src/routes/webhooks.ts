import { Router, type Request } from 'express';
import { NotifyError, parseOrThrow } from '@notify/core';
import {
  ENDPOINT_ID_PATTERN,
  ROTATION_GRACE_MS,
  toEndpointView,
  webhookEndpointRequestSchema,
  type WebhookConfig,
  type WebhookEndpoint,
  type WebhookService,
} from '@notify/webhooks';

const EVENT_ID_PATTERN = /^evt_[A-Za-z0-9_-]{1,64}$/;

function requireJson(req: Request): void {
  if (!req.is('application/json')) throw new NotifyError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
}

function endpointId(raw: unknown): string {
  const id = String(raw);
  if (!ENDPOINT_ID_PATTERN.test(id)) {
    throw new NotifyError('VALIDATION_FAILED', 'invalid webhook endpoint id', {
      details: [{ field: 'id', reason: 'must be ep_ and 24 lowercase hex characters' }],
    });
  }
  return id;
}

const created = (endpoint: WebhookEndpoint, secret: string) => ({ ...toEndpointView(endpoint), secret });

/**
 * POST   /v1/webhooks                                   register an endpoint: 201 with its signing secret (shown once)
 * GET    /v1/webhooks                                   this tenant's endpoints (no secrets)
 * GET    /v1/webhooks/:id                               one endpoint (disabled, disabledReason when disabled)
 * DELETE /v1/webhooks/:id                               remove it (queued deliveries to it are dropped)
 * POST   /v1/webhooks/:id/rotate-secret                 a new secret (shown once); the old one signs for 24 h more
 * GET    /v1/webhooks/:id/deliveries                    recent attempts, newest first
 * POST   /v1/webhooks/:id/deliveries/:eventId/retry     send that event again now
 * Another tenant's endpoint is a 404, like an unknown one.
 */
export function webhooksRouter(deps: { webhooks: WebhookService; config: Pick<WebhookConfig, 'maxEndpoints'> }): Router {
  const router = Router();
  const { registry } = deps.webhooks;
  const tenantOf = (res: { locals: Record<string, unknown> }) => res.locals.tenant as string;
  const find = async (tenant: string, raw: unknown) => {
    const id = endpointId(raw);
    const endpoint = await registry.get(tenant, id);
    if (!endpoint) throw new NotifyError('NOT_FOUND', `no webhook endpoint '${id}' for this tenant`);
    return endpoint;
  };

  router.post('/', async (req, res) => {
    requireJson(req);
    const input = parseOrThrow(webhookEndpointRequestSchema, req.body);
    const refusal = await deps.webhooks.urlRefusal(input.url);
    if (refusal) throw new NotifyError('VALIDATION_FAILED', `invalid request: url: ${refusal}`, { details: [{ field: 'url', reason: refusal }] });
    const result = await registry.create(tenantOf(res), input, deps.config.maxEndpoints);
    if (result === 'limit') {
      const reason = `this tenant already has the maximum of ${deps.config.maxEndpoints} endpoints (WEBHOOK_MAX_ENDPOINTS); delete one first`;
      throw new NotifyError('VALIDATION_FAILED', `invalid request: url: ${reason}`, { details: [{ field: 'url', reason }] });
    }
    res.status(201).location(`/v1/webhooks/${result.endpoint.id}`).json(created(result.endpoint, result.endpoint.secret));
  });

  router.get('/', async (_req, res) => {
    res.json({ items: (await registry.list(tenantOf(res))).map((e) => toEndpointView(e)) });
  });

  router.get('/:id', async (req, res) => {
    res.json(toEndpointView(await find(tenantOf(res), req.params.id)));
  });

  router.delete('/:id', async (req, res) => {
    const id = endpointId(req.params.id);
    if (!(await registry.delete(tenantOf(res), id))) throw new NotifyError('NOT_FOUND', `no webhook endpoint '${id}' for this tenant`);
    res.status(204).end();
  });

  router.post('/:id/rotate-secret', async (req, res) => {
    const endpoint = await find(tenantOf(res), req.params.id);
    const rotated = await registry.rotate(tenantOf(res), endpoint.id, ROTATION_GRACE_MS);
    if (!rotated) throw new NotifyError('NOT_FOUND', `no webhook endpoint '${endpoint.id}' for this tenant`);
    res.json(created(rotated.endpoint, rotated.secret));
  });

  router.get('/:id/deliveries', async (req, res) => {
    const endpoint = await find(tenantOf(res), req.params.id);
    res.json({ items: await registry.deliveries(endpoint.id) });
  });

  router.post('/:id/deliveries/:eventId/retry', async (req, res) => {
    const endpoint = await find(tenantOf(res), req.params.id);
    const eventId = String(req.params.eventId);
    if (!EVENT_ID_PATTERN.test(eventId)) {
      throw new NotifyError('VALIDATION_FAILED', 'invalid event id', {
        details: [{ field: 'eventId', reason: 'must be evt_ and up to 64 letters, digits, - or _' }],
      });
    }
    const state = await deps.webhooks.retry(endpoint.id, eventId);
    if (state === undefined)
      throw new NotifyError('NOT_FOUND', `no delivery of event '${eventId}' to this endpoint is kept (failed ones a week, delivered ones a day)`);
    res.status(202).json({ endpointId: endpoint.id, eventId, previousState: state });
  });

  return router;
}
