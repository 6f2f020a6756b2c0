import type { Server } from 'node:http';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { providerCarries } from '@notify/providers';
import { createPipelineMetrics, createReceiptMetrics, createRegistry, createTenantMetrics, registerQueueDepthGauge } from '@notify/metrics';
import {
  ChannelQueues,
  IntakeService,
  ReceiptService,
  RecipientStore,
  ReplicaWaiter,
  SuppressionStore,
  NO_COALESCING,
  createBreakerGate,
  createConsentServices,
  createTenantLimiter,
  createWriteCoalescer,
  loadScripts,
  startIntakeBacklog,
  type ChannelGate,
} from '@notify/pipeline';
import { checkPartitionCount, connectRedis, createLimitedServer, listenOn, startMetricsListener, type RedisClient } from '@notify/runtime';
import { createWebhookService, receiptEventSink, recipientPreferenceEvent } from '@notify/webhooks';
import { createAdminConsole } from './admin/admin-console';
import { createApp } from './app';
import { createTrackingRouter } from './tracking';
import type { ApiConfig } from './config';
import { openHistoryAccess } from './history-access';
import { apiLaneFairShare, tenantBacklogSource } from './lane-fair-share';
import type { OptOutListener } from './routes/consent/preferences';
import { SnsSignatureVerifier } from './routes/provider-events/sns-signature';

export interface RunningApi {
  url: string;
  /** The metrics listener's `/metrics` (its own host and port, loopback by default). */
  metricsUrl: string;
  /** Settles when the start-up warm-up has ended (/readyz answers 503 warming-up until then); never rejects. */
  warmedUp: Promise<void>;
  /** Graceful stop: refuse new intake (503), let in-flight requests finish, close queues and Redis. */
  close(): Promise<void>;
}

export async function startApi(config: ApiConfig, logger: Logger, options: { gate?: ChannelGate } = {}): Promise<RunningApi> {
  const redis = await connectRedis(config.redis, 'producer', { requireDurable: config.requireDurableRedis });
  await checkPartitionCount(redis, config.partitions).catch(async (error: unknown) => {
    redis.disconnect();
    throw error;
  });
  const registry = createRegistry('api');
  const metrics = createPipelineMetrics(registry);
  // Every partition's lanes: a notification's first step goes to its partition (docs/partitions.md).
  // First steps of one lane (and tenant, LANE_FAIR_SHARE: lanes serve tenants in turn) share batch jobs.
  const fair = apiLaneFairShare(redis, config, registry, () => queues.all());
  const queues = new ChannelQueues(redis, config.partitions, config.stepBatch, undefined, fair);
  queues.onError((err, queue) => logger.error({ err, queue }, 'queue error'));
  registerQueueDepthGauge(registry, () => queues.depthSources());
  // The intake connection already fails fast (producer role): the breakers share it.
  const gate = options.gate ?? createBreakerGate({ redis: asRedis(redis), config: config.breaker, registry, logger, routes: config.providerRoutes });
  const recipients = new RecipientStore(redis, config.partitions);
  const consent = createConsentServices(redis, config.consent, config.partitions);
  // One socket write per event-loop turn: a batch's intake scripts (and the turn's job adds) leave
  // together instead of one write syscall each (docs/benchmarks-pipeline.md, "Settings the figures depend on").
  const coalesce = config.coalesceWrites ? createWriteCoalescer(redis, { onReplies: true }) : NO_COALESCING;
  // archive: a cancel ends a record, which then joins the archive queue when the history is on.
  const scripts = loadScripts(redis, { partitions: config.partitions, coalesce, archive: config.history.enabled });
  const tenantMetrics = createTenantMetrics(registry, config.tenants);
  // One call per request on the tenant's own slot; a tenant without limits makes none (docs/tenants.md).
  const limiter = createTenantLimiter({ redis, partitions: config.partitions, policyOf: config.tenantLimits });
  // Reminders, then urgent, are refused while the lanes are far behind, first to the tenants holding the backlog (docs/backpressure.md).
  const backlog = startIntakeBacklog(redis, config.partitions, config.backpressure, registry, tenantBacklogSource(fair, queues));
  const intake = new IntakeService({
    scripts,
    backlog,
    queues,
    recipients,
    gate,
    metrics,
    replication: new ReplicaWaiter(redis, config.intakeWait),
    // An address no provider of its channel can carry (a device token with only Web Push) is a 400.
    consent: consent.settings,
    tenantSettings: config.tenantSettings,
    limiter,
    tenantMetrics,
    carriable: (channel, address) => config.providerKinds[channel].some((kind) => providerCarries(kind, address)),
    config: {
      recordTtlSeconds: config.recordTtlSeconds,
      scheduleMaxAheadSeconds: config.scheduleMaxAheadSeconds,
      idempotencyWindowSeconds: config.history.idempotencyWindowSeconds,
      budget: config.budget,
    },
  });

  // Opened in the background: the api serves intake and status whether or not PostgreSQL answers.
  const history = openHistoryAccess(config.history, logger);
  const webhooks = createWebhookService({ redis, config: config.webhooks, partitions: config.partitions, logger: logger.child({ component: 'webhooks' }) });
  // Provider events in (docs/provider-events.md): receipts, bounces and complaints; the tenant event goes out through the webhooks publisher.
  const receipts = new ReceiptService({
    redis,
    partitions: config.partitions,
    logger: logger.child({ component: 'receipts' }),
    providers: new Map(config.providerIdentities.map((p) => [p.name, p])),
    suppressionTtlSeconds: config.providerEvents.suppressionTtlSeconds,
    archive: config.history.enabled,
    history,
    metrics: createReceiptMetrics(registry),
    events: receiptEventSink(webhooks.publisher),
  });

  // The switch is recorded already: a webhook that cannot be queued is logged, never the request's failure.
  const preferenceEvents: OptOutListener = (tenant, recipient, change, source) =>
    webhooks.publisher
      .publishNotificationEvent(
        tenant,
        recipientPreferenceEvent({
          ...(recipient.id ? { recipientId: recipient.id } : {}),
          recipientHash: recipient.rh,
          category: change.category,
          channel: change.channel,
          source,
          optedOut: change.optedOut,
        }),
      )
      .then(() => undefined)
      .catch((error: unknown) => logger.warn({ err: error }, 'recipient preference event not published'));
  let draining = false;
  let warmingUp = config.tracking.warmUp.queries > 0;
  const shutdown = new AbortController();
  const tracking = createTrackingRouter({ config: config.tracking, registry, logger, shutdownSignal: shutdown.signal });
  const app = createApp({
    redis: asRedis(redis),
    intake,
    recipients,
    logger,
    apiKeys: config.apiKeys,
    adminApiKey: config.adminApiKey,
    bodyLimit: config.bodyLimit,
    isDraining: () => draining,
    isWarmingUp: () => warmingUp,
    history,
    maxListLimit: config.history.maxListLimit,
    webhooks: { service: webhooks, config: config.webhooks },
    suppressions: { store: new SuppressionStore(redis, config.partitions), defaultTtlSeconds: config.providerEvents.suppressionTtlSeconds },
    cancel: { scripts, metrics, events: webhooks.publisher.stepEvents() },
    consent: {
      settings: consent.settings,
      optOuts: consent.optOuts,
      secrets: config.consent.unsubscribeSecrets,
      onChange: preferenceEvents,
    },
    providerEvents: {
      receipts,
      secrets: config.providerEvents.secrets,
      sns: new SnsSignatureVerifier({ hosts: config.snsCertHosts }),
      smsStop: async (phone) => {
        for (const { tenant, rh } of await consent.optOuts.stopSms(phone))
          await preferenceEvents(tenant, { rh }, { category: '*', channel: 'sms', optedOut: true }, 'sms-stop');
      },
    },
    routers: [
      { path: '/v1/tracking', router: tracking, auth: 'tenant' },
      // Bull-board at /admin/queues and its browser sign-in: the console checks the admin key itself.
      {
        path: '/admin',
        router: createAdminConsole({
          queues: queues.all(),
          redis: asRedis(redis),
          adminApiKey: config.adminApiKey,
          session: config.adminSession,
          trustedProxies: config.adminTrustedProxies,
          notifications: {
            history,
            tenants: [...new Set(config.apiKeys.map((k) => k.tenant))],
            partitions: config.partitions,
            webhooks: webhooks.registry,
            maxListLimit: config.history.maxListLimit,
          },
        }),
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
      ready: !draining && !warmingUp && redis.status === 'ready',
      body: { status: draining ? 'draining' : warmingUp ? 'warming-up' : redis.status === 'ready' ? 'ready' : 'not-ready' },
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
  // Ready only once the tracking path is warm (tracking/warm-up.ts): it serves meanwhile, but a
  // balancer that waits for /readyz sends no caller to a cold process. Never fails readiness.
  const warmedUp = tracking
    .warmUp()
    .then((report) => logger.info({ ...report, elapsedMs: Math.round(report.elapsedMs) }, 'tracking warm-up done'))
    .catch((error: unknown) => logger.warn({ err: error }, 'tracking warm-up stopped'))
    .finally(() => {
      warmingUp = false;
    });

  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host}:${port}`,
    metricsUrl: metricsListener.url,
    warmedUp,
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
        backlog.stop();
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

/**
 * The breakers, the health check, the status route and the admin sessions take a `Redis`; on a
 * cluster they get the `Cluster`, which serves them the same way: their commands are single-key
 * or single-slot ({notify:breaker}, {notify:admin}; a status read names one record).
 */
function asRedis(redis: RedisClient): Redis {
  return redis as Redis;
}
