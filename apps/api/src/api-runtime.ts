import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createPipelineMetrics, createReceiptMetrics, createRegistry, registerQueueDepthGauge } from '@notify/metrics';
import { ChannelQueues, IntakeService, ReceiptService, RecipientStore, createBreakerGate, loadScripts, type ChannelGate } from '@notify/pipeline';
import { connectRedis, createLimitedServer, listenOn, startMetricsListener } from '@notify/runtime';
import { createWebhookService } from '@notify/webhooks';
import { createAdminConsole } from './admin/admin-console';
import { createApp } from './app';
import { createTrackingRouter } from './tracking';
import type { ApiConfig } from './config';
import { openHistoryAccess } from './history-access';

export interface RunningApi {
  url: string;
  /** The metrics listener's `/metrics` (its own host and port, loopback by default). */
  metricsUrl: string;
  /** Graceful stop: refuse new intake (503), let in-flight requests finish, close queues and Redis. */
  close(): Promise<void>;
}

export async function startApi(config: ApiConfig, logger: Logger, options: { gate?: ChannelGate } = {}): Promise<RunningApi> {
  const redis = await connectRedis(config.redisUrl, 'producer', { requireDurable: config.requireDurableRedis });
  const registry = createRegistry('api');
  const metrics = createPipelineMetrics(registry);
  const queues = new ChannelQueues(redis);
  registerQueueDepthGauge(registry, () => queues.all());
  // The intake connection already fails fast (producer role): the breakers share it.
  const gate = options.gate ?? createBreakerGate({ redis, config: config.breaker, registry, logger, routes: config.providerRoutes });
  const recipients = new RecipientStore(redis);
  const intake = new IntakeService({
    scripts: loadScripts(redis),
    queues,
    recipients,
    gate,
    metrics,
    config: { recordTtlSeconds: config.recordTtlSeconds, idempotencyWindowSeconds: config.history.idempotencyWindowSeconds, budget: config.budget },
  });

  // Opened in the background: the api serves intake and status whether or not PostgreSQL answers.
  const history = openHistoryAccess(config.history, logger);
  const webhooks = createWebhookService({ redis, config: config.webhooks, logger: logger.child({ component: 'webhooks' }) });
  // Provider events in (docs/provider-events.md): receipts, bounces and complaints; the tenant event goes out through the webhooks publisher.
  const receipts = new ReceiptService({
    redis,
    logger: logger.child({ component: 'receipts' }),
    suppressionTtlSeconds: config.providerEvents.suppressionTtlSeconds,
    archive: config.history.enabled,
    metrics: createReceiptMetrics(registry),
    events: webhooks.publisher.stepEvents(),
  });

  let draining = false;
  const shutdown = new AbortController();
  const tracking = createTrackingRouter({ config: config.tracking, registry, logger, shutdownSignal: shutdown.signal });
  const app = createApp({
    redis,
    intake,
    recipients,
    logger,
    apiKeys: config.apiKeys,
    adminApiKey: config.adminApiKey,
    bodyLimit: config.bodyLimit,
    isDraining: () => draining,
    history,
    maxListLimit: config.history.maxListLimit,
    webhooks: { service: webhooks, config: config.webhooks },
    providerEvents: { receipts, secrets: config.providerEvents.secrets },
    routers: [
      { path: '/v1/tracking', router: tracking, auth: 'tenant' },
      // Bull-board at /admin/queues and its browser sign-in: the console checks the admin key itself.
      {
        path: '/admin',
        router: createAdminConsole({ queues: queues.all(), redis, adminApiKey: config.adminApiKey, session: config.adminSession }),
        auth: 'none',
      },
    ],
  });
  const server: Server = createLimitedServer(app, config.http);
  const metricsListener = await startMetricsListener({
    registry,
    host: config.metricsHost,
    port: config.metricsPort,
    limits: config.http,
    readiness: () => ({
      ready: !draining && redis.status === 'ready',
      body: { status: draining ? 'draining' : redis.status === 'ready' ? 'ready' : 'not-ready' },
    }),
  });
  let port: number;
  try {
    port = await listenOn(server, config.port, config.host);
  } catch (error) {
    await metricsListener.close();
    await history.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host}:${port}`,
    metricsUrl: metricsListener.url,
    close: () => {
      closing ??= (async () => {
        draining = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        let graceTimer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => {
          graceTimer = setTimeout(resolve, config.shutdownGraceMs);
        });
        await Promise.race([closed, grace]);
        clearTimeout(graceTimer);
        server.closeAllConnections();
        shutdown.abort();
        await metricsListener.close();
        await tracking.close();
        await queues.close();
        await webhooks.close();
        await gate.close();
        await history.close();
        await redis.quit().catch(() => redis.disconnect());
      })();
      return closing;
    },
  };
}
