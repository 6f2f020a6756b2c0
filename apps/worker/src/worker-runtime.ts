import type { Logger } from 'pino';
import { CHANNELS, PRIORITIES, type Channel } from '@notify/core';
import {
  createHistoryMetrics,
  createPipelineMetrics,
  createReceiptMetrics,
  createRegistry,
  createTenantDeliveries,
  createWebhookMetrics,
  exposeTerminalSeries,
  registerQueueDepthGauge,
} from '@notify/metrics';
import {
  Archiver,
  ChannelQueues,
  DEFAULT_STEP_BATCH,
  ChannelWorkers,
  LaneFairShare,
  createBreakerGate,
  createConsentServices,
  createStepProcessor,
  createWriteCoalescer,
  NO_COALESCING,
  lazyHistoryStore,
  loadArchiveScripts,
  loadScripts,
  ReceiptService,
  type ChannelGate,
} from '@notify/pipeline';
import { ProviderDirectory, identityOfAdapter, kindsDifferInWhatTheyCarry, providerCarries } from '@notify/providers';
import { formatPartitionList } from '@notify/core';
import { checkPartitionCount, connectRedis, registerProcess, startMetricsListener } from '@notify/runtime';
import { WebhookDeliveryWorker, WebhookSender, createWebhookService, receiptEventSink } from '@notify/webhooks';
import type { WorkerConfig } from './config';
import { startPartitionLoops } from './partition-loops';

export interface RunningWorker {
  metricsUrl: string;
  /** Graceful stop: no new jobs, finish in-flight calls, close queues, providers and Redis. */
  close(): Promise<void>;
}

/**
 * Starts the channel bulkheads named by `config.roles`, and a small HTTP server for /metrics and
 * health. `now`: the step path's clock (default Date.now), so a test can stand at the end of a
 * recipient's night without waiting for it.
 */
export async function startWorker(config: WorkerConfig, logger: Logger, options: { gate?: ChannelGate; now?: () => number } = {}): Promise<RunningWorker> {
  const redis = await connectRedis(config.redis, 'worker', { requireDurable: config.requireDurableRedis });
  await checkPartitionCount(redis, config.partitions).catch(async (error: unknown) => {
    redis.disconnect();
    throw error;
  });
  const registry = createRegistry('worker');
  const metrics = createPipelineMetrics(registry);
  exposeTerminalSeries(metrics, PRIORITIES);
  // Every partition's lanes (a step job goes to its notification's partition); this process consumes config.workerPartitions.
  // LANE_FAIR_SHARE: later steps are tagged too (the weight their first step carried), and each job taken moves its lane's virtual time.
  const fairTags = config.laneFairShare ? new LaneFairShare(redis) : undefined;
  const queues = new ChannelQueues(redis, config.partitions, DEFAULT_STEP_BATCH, config.laterStepBatch, fairTags ? { tags: fairTags } : undefined);
  queues.onError((err, queue) => logger.error({ err, queue }, 'queue error'));
  registerQueueDepthGauge(registry, () => queues.depthSources(config.workerPartitions).filter((q) => config.roles.some((r) => q.name.startsWith(`${r}-`))));
  // History on: terminal records join the archive queue; the archiver moves them to PostgreSQL.
  // One socket write per event-loop turn on the shared connection (scripts, BullMQ, the webhook hook).
  const coalesce = config.coalesceWrites ? createWriteCoalescer(redis, { onReplies: true }) : NO_COALESCING;
  const scripts = loadScripts(redis, { archive: config.history.enabled, partitions: config.partitions, coalesce });
  // Only the adapters of this worker's channels: an SMPP session or an SMTP pool is opened where it is used.
  const providers = ProviderDirectory.fromConfig(config.providers.providers, config.roles);
  // The breakers get their own fail-fast connection: in a Redis outage their calls fail at once
  // and fail OPEN (documented in breaker-gate.ts), instead of queueing behind the worker
  // connection's endless retries until the breaker's timeout.
  // The breakers' keys share one slot ({notify:breaker}): a Cluster serves their scripts as a Redis does.
  const [gate, breakerRedis] = options.gate
    ? ([options.gate, undefined] as const)
    : await connectRedis(config.redis, 'producer', { requireDurable: false }).then(
        (own) => [createBreakerGate({ redis: own, config: config.breaker, registry, logger, routes: config.providers.routes }), own] as const,
      );
  // Tenant webhooks: the step processor publishes events; their own queue and worker deliver them
  // (their own bulkhead: a slow receiver holds webhook slots only).
  const webhooks = createWebhookService({ redis, config: config.webhooks, partitions: config.partitions, logger: logger.child({ component: 'webhooks' }) });
  const webhookSender = new WebhookSender(config.webhooks);
  const webhookWorker = new WebhookDeliveryWorker({
    connection: redis,
    redis,
    registry: webhooks.registry,
    sender: webhookSender,
    publisher: webhooks.publisher,
    metrics: createWebhookMetrics(registry),
    logger: logger.child({ component: 'webhook-delivery' }),
    config: config.webhooks,
  });
  const processor = createStepProcessor({
    redis,
    scripts,
    queues,
    providers,
    unknownOutcomePolicy: (channel) => config.providers.unknownOutcome[channel],
    addressRouting: addressRouting(config.providers.routes, providers),
    gate,
    metrics,
    config: config.cascade,
    logger: logger.child({ component: 'step' }),
    events: webhooks.publisher.stepEvents(),
    receiptIndexTtlSeconds: config.receiptIndexTtlSeconds,
    quietHoursSpreadMs: config.quietHoursSpreadMs,
    ...(options.now ? { now: options.now } : {}),
    coalesce,
    consent: createConsentServices(redis, config.consent, config.partitions),
  });
  const tenantDeliveries = createTenantDeliveries(registry);
  processor.events.ended.subscribe((e) => (e.status === 'delivered' ? tenantDeliveries.delivered(e.tenant) : undefined));
  const historyStore =
    config.history.enabled && config.archiver.enabled
      ? lazyHistoryStore({ url: config.history.url, retentionDays: config.history.retentionDays, applicationName: 'notify-worker' })
      : undefined;
  // Receipts pushed over an adapter's own connection (SMPP deliver_sm) are applied like the api's provider events (docs/provider-events.md).
  const receipts = new ReceiptService({
    redis,
    partitions: config.partitions,
    logger: logger.child({ component: 'receipts' }),
    providers: new Map(providers.all().map((adapter) => [adapter.name, identityOfAdapter(adapter)])),
    suppressionTtlSeconds: config.cascade.suppressionTtlSeconds,
    archive: config.history.enabled,
    // A receipt for a message archived already updates its history row.
    ...(historyStore ? { history: historyStore } : {}),
    metrics: createReceiptMetrics(registry),
    events: receiptEventSink(webhooks.publisher),
  });
  for (const adapter of providers.all()) {
    adapter.onReceipt?.((receipt) => {
      receipts
        .apply({ ...receipt, kind: receipt.state, eventId: `${receipt.providerMessageId}:${receipt.state}` })
        .catch((error: unknown) => logger.warn({ err: error, provider: receipt.provider }, 'provider receipt not applied'));
    });
  }
  const workers = new ChannelWorkers({
    connection: redis,
    channels: config.roles,
    partitions: config.workerPartitions,
    partitionCount: config.partitions,
    bulkheads: config.bulkheads,
    reminderYield: config.reminderYield,
    watchdog: config.laneWatchdog,
    locks: config.locks,
    processor,
    scripts,
    metrics,
    logger,
    coalesce,
    ...(fairTags ? { fairShare: fairTags } : {}),
  });
  workers.start();
  await workers.waitUntilReady();
  webhookWorker.start();
  await webhookWorker.waitUntilReady();
  // Per partition this process consumes: the intake sweeper, the releaser, (with history) the parker and the archiver.
  const partitionLoops = startPartitionLoops({ redis, queues, registry, logger, config, ...(historyStore ? { parked: historyStore.parked } : {}) });
  const archivers: Archiver[] = [];
  if (historyStore) {
    const backlog = async () => (await Promise.all(archivers.map((a) => a.backlog()))).reduce((sum, n) => sum + n, 0);
    const historyMetrics = createHistoryMetrics(registry, backlog);
    for (const partition of config.workerPartitions) {
      const archiver = new Archiver({
        redis,
        scripts: loadArchiveScripts(redis, partition),
        partition,
        store: historyStore,
        logger: logger.child({ component: 'archiver', partition }),
        config: config.archiver.config,
        metrics: historyMetrics,
      });
      archivers.push(archiver);
      archiver.start();
    }
  }

  let draining = false;
  const listener = await startMetricsListener({
    registry,
    host: config.metricsHost,
    port: config.metricsPort,
    limits: config.http,
    health: { roles: config.roles },
    readiness: () => {
      const ready = !draining && redis.status === 'ready';
      return { ready, body: { status: ready ? 'ready' : draining ? 'draining' : 'not-ready', redis: redis.status } };
    },
  });
  const metricsUrl = listener.url;
  logger.info(
    {
      roles: config.roles,
      partitions: formatPartitionList(config.workerPartitions),
      of: config.partitions,
      cluster: config.redis.clusterNodes !== undefined,
      metrics: metricsUrl,
    },
    'worker started',
  );
  // Found by the chaos CLI (kill-worker, status); a SIGKILLed worker disappears after 3 missed beats.
  const registration = await registerProcess(
    redis,
    { app: 'worker', roles: config.roles, metricsUrl },
    {
      heartbeatMs: config.heartbeatMs,
      onError: (error) => logger.warn({ err: error }, 'process registry heartbeat failed'),
    },
  );

  let closing: Promise<void> | undefined;
  return {
    metricsUrl,
    close: () => {
      closing ??= (async () => {
        draining = true;
        await registration.stop().catch(() => undefined);
        await partitionLoops.stop();
        await Promise.all(archivers.map((a) => a.stop()));
        await historyStore?.close();
        await workers.close();
        await webhookWorker.close();
        await webhookSender.close();
        await webhooks.close();
        await queues.close();
        await providers.close();
        await gate.close();
        await breakerRedis?.quit().catch(() => breakerRedis.disconnect());
        await listener.close();
        await redis.quit().catch(() => redis.disconnect());
      })();
      return closing;
    },
  };
}

/** Channels whose providers differ in what they carry (Web Push and FCM on push) pick a provider by the notification's address. */
function addressRouting(routes: Record<Channel, string[]>, providers: ProviderDirectory) {
  const kindOf = new Map(providers.all().map((a) => [a.name, a.kind]));
  const channels = new Set(CHANNELS.filter((c) => kindsDifferInWhatTheyCarry(routes[c].flatMap((p) => kindOf.get(p) ?? []))));
  return {
    channels,
    filterFor(channel: Channel, storedAddress: string) {
      const carries = (p: string) => {
        const kind = kindOf.get(p);
        return kind !== undefined && providerCarries(kind, storedAddress);
      };
      return routes[channel].some(carries) ? carries : undefined;
    },
  };
}
