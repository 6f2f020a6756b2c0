import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { CHANNELS, type Channel } from '@notify/core';
import { createPipelineMetrics, createRegistry, registerQueueDepthGauge } from '@notify/metrics';
import { ChannelQueues, ChannelWorkers, IntakeSweeper, ProviderClient, createBreakerGate, createStepProcessor, loadScripts, type ChannelGate, type ProviderEndpoint } from '@notify/pipeline';
import { connectRedis, registerProcess } from '@notify/runtime';
import type { WorkerConfig } from './config';

export interface RunningWorker {
  metricsUrl: string;
  /** Graceful stop: no new jobs, finish in-flight calls, close queues, providers and Redis. */
  close(): Promise<void>;
}

/** Starts the channel bulkheads named by `config.roles`, and a small HTTP server for /metrics and health. */
export async function startWorker(config: WorkerConfig, logger: Logger, options: { gate?: ChannelGate } = {}): Promise<RunningWorker> {
  const redis = await connectRedis(config.redisUrl, 'worker', { requireDurable: config.requireDurableRedis });
  const registry = createRegistry('worker');
  const metrics = createPipelineMetrics(registry);
  const queues = new ChannelQueues(redis);
  registerQueueDepthGauge(registry, () => queues.all().filter((q) => config.roles.some((r) => q.name.startsWith(`${r}-`))));
  const scripts = loadScripts(redis);
  const endpoints = {} as Record<Channel, ProviderEndpoint>;
  for (const channel of CHANNELS) {
    const lanes = config.bulkheads[channel];
    // The provider pool is part of the bulkhead: as many sockets as the channel's lanes run calls.
    endpoints[channel] = { ...config.providers[channel], connections: lanes.urgent.concurrency + lanes.reminder.concurrency };
  }
  const provider = new ProviderClient(endpoints);
  // The breakers get their own fail-fast connection: in a Redis outage their calls fail at once
  // and fail OPEN (documented in breaker-gate.ts), instead of queueing behind the worker
  // connection's endless retries until the breaker's timeout.
  const breakerRedis = options.gate ? undefined : await connectRedis(config.redisUrl, 'producer', { requireDurable: false });
  const gate = options.gate ?? createBreakerGate({ redis: breakerRedis!, config: config.breaker, registry, logger });
  const processor = createStepProcessor({
    redis, scripts, queues, provider, gate, metrics, config: config.cascade, logger: logger.child({ component: 'step' }),
  });
  const workers = new ChannelWorkers({
    connection: redis, channels: config.roles, bulkheads: config.bulkheads, locks: config.locks,
    processor, scripts, metrics, logger,
  });
  workers.start();
  await workers.waitUntilReady();
  const sweeper = new IntakeSweeper({ redis, queues, logger: logger.child({ component: 'intake-sweeper' }), config: config.intakeSweep });
  sweeper.start();

  let draining = false;
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/metrics') {
        res.setHeader('content-type', registry.contentType);
        res.end(await registry.metrics());
      } else if (req.url === '/healthz') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ status: 'ok', roles: config.roles }));
      } else if (req.url === '/readyz') {
        const ok = !draining && redis.status === 'ready';
        res.statusCode = ok ? 200 : 503;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ status: ok ? 'ready' : draining ? 'draining' : 'not-ready', redis: redis.status }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    })().catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort, config.metricsHost, () => resolve());
  });
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : config.metricsPort;
  logger.info({ roles: config.roles, metrics: `http://${config.metricsHost}:${port}/metrics` }, 'worker started');
  // Found by the chaos CLI (kill-worker, status); a SIGKILLed worker disappears after 3 missed beats.
  const registration = await registerProcess(redis, { app: 'worker', roles: config.roles, metricsUrl: `http://${config.metricsHost}:${port}/metrics` }, {
    heartbeatMs: config.heartbeatMs,
    onError: (error) => logger.warn({ err: error }, 'process registry heartbeat failed'),
  });

  let closing: Promise<void> | undefined;
  return {
    metricsUrl: `http://${config.metricsHost}:${port}/metrics`,
    close: () => {
      closing ??= (async () => {
        draining = true;
        await registration.stop().catch(() => undefined);
        await sweeper.stop();
        await workers.close();
        await queues.close();
        await provider.close();
        await gate.close();
        await breakerRedis?.quit().catch(() => breakerRedis.disconnect());
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await redis.quit().catch(() => redis.disconnect());
      })();
      return closing;
    },
  };
}
