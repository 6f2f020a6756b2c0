import express, { type Express, type Router } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { NotifyError } from '@notify/core';
import type { UnsubscribeSecret } from '@notify/core';
import { listScheduled, type ConsentSettings, type IntakeService, type OptOutStore, type RecipientStore, type SuppressionStore } from '@notify/pipeline';
import type { WebhookConfig, WebhookService } from '@notify/webhooks';
import { createKeyring, requireAdmin, requireTenant } from './auth';
import { documentedErrorShape, errorMiddleware, refuseOversizedBody } from './error-middleware';
import type { HistoryAccess } from './history-access';
import { jsonBody } from './json-body';
import { inOrder } from './middleware-chain';
import { docsRouter } from './openapi';
import { requestContext } from './request-context';
import { healthRouter } from './routes/health';
import { categoriesRouter } from './routes/consent/categories';
import { preferencesRouter, type OptOutListener } from './routes/consent/preferences';
import { unsubscribeRouter } from './routes/consent/unsubscribe';
import { acceptOne, notificationsRouter, type CancelRouteDeps } from './routes/notifications';
import { providerEventsRouter, type ProviderEventsDeps } from './routes/provider-events';
import { recipientsRouter } from './routes/recipients';
import { suppressionsRouter } from './routes/suppressions';
import { webhooksRouter } from './routes/webhooks';

export interface AppDeps {
  redis: Redis;
  intake: IntakeService;
  recipients: RecipientStore;
  logger: Logger;
  apiKeys: readonly { key: string; tenant: string }[];
  adminApiKey: string;
  /** Bytes; a declared Content-Length above it is refused with 413 before the body is read. */
  bodyLimit: number;
  isDraining: () => boolean;
  /** True until the start-up warm-up (tracking) is done: /readyz answers 503 warming-up meanwhile. @defaultValue never */
  isWarmingUp?: () => boolean;
  /** The history behind the list endpoints and by-id reads after archival (default: disabled, the lists answer 503). */
  history?: HistoryAccess;
  /** HISTORY_MAX_LIST_LIMIT (default: the config's default). */
  maxListLimit?: number;
  /** Extra routers, mounted under their path with tenant or admin auth (tracking query, bull-board). */
  routers?: { path: string; router: Router; auth: 'tenant' | 'admin' | 'none' }[];
  /** Tenant webhooks (`/v1/webhooks`); without it the routes are not served. */
  webhooks?: { service: WebhookService; config: Pick<WebhookConfig, 'maxEndpoints'> };
  /** Provider events in (`/v1/providers/:provider/events`, docs/provider-events.md) and the suppression lift; without it neither is served. */
  providerEvents?: Omit<ProviderEventsDeps, 'bodyLimit'>;
  /** The tenant's suppression list (`/v1/suppressions`, docs/preferences.md); `defaultTtlSeconds` for an added one without `ttlSeconds`. Without it the routes are not served. */
  suppressions?: { store: SuppressionStore; defaultTtlSeconds: number };
  /** Cancel (`DELETE /v1/notifications/...`); without it the routes are not served. */
  cancel?: CancelRouteDeps;
  /** Categories, preferences and the one-click unsubscribe links (docs/preferences.md); without it none is served. */
  consent?: { settings: ConsentSettings; optOuts: OptOutStore; secrets: readonly UnsubscribeSecret[]; onChange?: OptOutListener };
}

/** The HTTP application, separate from listen() so tests drive it with supertest. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestContext(deps.logger));

  const tenant = requireTenant(createKeyring(deps.apiKeys));
  // express.json's answers, read leaner for the common JSON body (json-body.ts).
  const json = jsonBody({ limit: deps.bodyLimit });
  const refuseOversized = refuseOversizedBody(deps.bodyLimit);
  const history = { ...(deps.history ? { history: deps.history } : {}), ...(deps.maxListLimit ? { maxListLimit: deps.maxListLimit } : {}) };
  // The intake first, its single POST straight to its handler: it would otherwise walk the
  // health and docs routers and the notifications router's layers on every request (none of
  // their paths overlap, so the order changes no answer). Its guards run as one layer.
  const intakeGuards = inOrder(refuseOversized, tenant, json);
  app.post('/v1/notifications', intakeGuards, acceptOne({ intake: deps.intake, isDraining: deps.isDraining }));
  app.use(
    '/v1/notifications',
    intakeGuards,
    notificationsRouter({ intake: deps.intake, redis: deps.redis, isDraining: deps.isDraining, ...history, ...(deps.cancel ? { cancel: deps.cancel } : {}) }),
  );
  app.use(healthRouter({ redis: deps.redis, isDraining: deps.isDraining, isWarmingUp: deps.isWarmingUp }));
  app.use(docsRouter()); // GET /openapi.json and /docs, public like the health checks
  // No /metrics here: it has its own listener (api-runtime.ts), off the public port.
  app.use(refuseOversized);

  // Authenticated per provider by its own secret (not a tenant key): mounted before the tenant routes.
  if (deps.providerEvents) app.use('/v1/providers', providerEventsRouter({ ...deps.providerEvents, bodyLimit: deps.bodyLimit }));
  const suppressions = deps.providerEvents ? { suppressions: deps.providerEvents.receipts } : {};
  if (deps.consent) {
    const { settings, optOuts, onChange } = deps.consent;
    const listener = onChange ? { onChange } : {};
    // Public like the health checks: a mailbox provider holds no key. The token is the credential.
    app.use('/u', unsubscribeRouter({ optOuts, secrets: deps.consent.secrets, ...listener }));
    app.use('/v1/categories', tenant, json, categoriesRouter({ settings }));
    app.use('/v1/recipients', tenant, json, preferencesRouter({ settings, optOuts, ...listener }));
  }
  const smsIndex = deps.consent ? { onSmsNumber: deps.consent.optOuts.indexSmsNumber.bind(deps.consent.optOuts) } : {};
  app.use(
    '/v1/recipients',
    tenant,
    json,
    recipientsRouter({
      recipients: deps.recipients,
      ...history,
      ...suppressions,
      ...smsIndex,
      scheduled: (t, f) => listScheduled(deps.redis, deps.intake.partitions, t, f, deps.history?.parked),
    }),
  );
  if (deps.suppressions) app.use('/v1/suppressions', tenant, json, suppressionsRouter(deps.suppressions));
  if (deps.webhooks) app.use('/v1/webhooks', tenant, json, webhooksRouter({ webhooks: deps.webhooks.service, config: deps.webhooks.config }));
  for (const extra of deps.routers ?? []) {
    if (extra.auth === 'tenant') app.use(extra.path, tenant, extra.router);
    else if (extra.auth === 'admin') app.use(extra.path, requireAdmin(deps.adminApiKey), documentedErrorShape(), extra.router);
    else app.use(extra.path, extra.router);
  }

  app.use((req, _res, next) => next(new NotifyError('NOT_FOUND', `no route ${req.method} ${req.path}`)));
  app.use(errorMiddleware(deps.logger));
  return app;
}
