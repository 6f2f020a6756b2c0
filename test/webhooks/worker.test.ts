import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { NotificationView } from '@notify/core';
import { createWebhookMetrics } from '@notify/metrics';
import { startPrivateRedis, waitFor, type PrivateRedis } from '@notify/platform-kit';
import { connectRedis } from '@notify/runtime';
import {
  DEFAULT_WEBHOOK_CONFIG,
  WebhookDeliveryWorker,
  WebhookSender,
  createWebhookService,
  notificationEvent,
  retryDelayMs,
  type WebhookConfig,
  type WebhookService,
} from '@notify/webhooks';
import { startReceiver } from './receiver';

/**
 * The delivery worker on a private Redis with receivers on loopback: the per-endpoint
 * concurrency limit across a wide worker, and the automatic disabling of an endpoint that
 * failed for the configured time (here milliseconds), with its `endpoint.disabled` event.
 */
const logger = pino({ level: 'silent' });
const TENANT = 'tenant-a';

let redis: PrivateRedis;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await redis?.stop();
});

async function startDelivery(overrides: Partial<WebhookConfig>) {
  const config: WebhookConfig = {
    ...DEFAULT_WEBHOOK_CONFIG,
    allowedHosts: ['127.0.0.1'],
    retryBaseMs: 20,
    retryMaxDelayMs: 50,
    maxAttempts: 100,
    ...overrides,
  };
  const connection = await connectRedis(redis.url, 'worker', { requireDurable: false });
  const service: WebhookService = createWebhookService({ redis: connection, config, logger });
  const sender = new WebhookSender(config);
  const registry = new Registry();
  const metrics = createWebhookMetrics(registry);
  const worker = new WebhookDeliveryWorker({
    connection,
    redis: connection,
    registry: service.registry,
    sender,
    publisher: service.publisher,
    metrics,
    logger,
    config,
  });
  worker.start();
  await worker.waitUntilReady();
  closers.push(async () => {
    await worker.close();
    await sender.close();
    await service.close();
    connection.disconnect();
  });
  return { service, metrics: registry, config };
}

const view = (id: string): NotificationView => ({
  id,
  eventId: `e-${id}`,
  recipientId: 'r-1',
  priority: 'urgent',
  status: 'failed',
  plan: ['push'],
  acceptedAt: 1,
  finishedAt: 2,
  failureReason: 'budget',
  attempts: [],
  skips: [],
});

it('the retry schedule spans more than a day with the defaults, even at the lowest jitter', () => {
  const delays = (random: () => number) =>
    Array.from({ length: DEFAULT_WEBHOOK_CONFIG.maxAttempts - 1 }, (_, i) => retryDelayMs(DEFAULT_WEBHOOK_CONFIG, i + 1, random));
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
  expect(sum(delays(() => 0))).toBeGreaterThan(24 * 3_600_000);
  expect(delays(() => 0.999).every((d) => d <= DEFAULT_WEBHOOK_CONFIG.retryMaxDelayMs * 1.2)).toBe(true);
  expect(retryDelayMs(DEFAULT_WEBHOOK_CONFIG, 1, () => 0.5)).toBe(DEFAULT_WEBHOOK_CONFIG.retryBaseMs);
});

it('holds the per-endpoint concurrency limit across a wide worker, and delivers everything', async () => {
  let inFlight = 0;
  let maxInFlight = 0;
  const ids = new Set<string>();
  const server = http.createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    req.resume();
    setTimeout(() => {
      ids.add(String(req.headers['webhook-id']));
      inFlight -= 1;
      res.writeHead(200).end();
    }, 40);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { service } = await startDelivery({ concurrency: 20, perEndpointConcurrency: 2 });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const created = await service.registry.create(TENANT, { url, events: ['notification.failed'] }, 10);
  if (created === 'limit') throw new Error('endpoint limit');
  for (let i = 0; i < 30; i += 1) await service.publisher.publishNotificationEvent(TENANT, notificationEvent('notification.failed', view(`c${i}`)));
  await waitFor('30 deliveries', () => ids.size >= 30, 30_000, 50);
  expect(maxInFlight).toBe(2);
});

it('disables an endpoint that failed for the configured time, and tells the tenant (GET shows it, endpoint.disabled to another endpoint)', async () => {
  const OTHER = 'tenant-d';
  const down = await startReceiver({ answer: () => 503 });
  const watcher = await startReceiver();
  closers.push(
    () => down.close(),
    () => watcher.close(),
  );
  const { service, metrics } = await startDelivery({ disableAfterMs: 300 });
  const failing = await service.registry.create(OTHER, { url: down.url, events: ['notification.failed'] }, 10);
  const watching = await service.registry.create(OTHER, { url: watcher.url, events: ['endpoint.disabled'] }, 10);
  if (failing === 'limit' || watching === 'limit') throw new Error('endpoint limit');
  const id = failing.endpoint.id;
  await service.publisher.publishNotificationEvent(OTHER, notificationEvent('notification.failed', view('d1')));

  const disabled = await waitFor(
    'the endpoint disabled',
    async () => ((await service.registry.get(OTHER, id))?.disabled ? service.registry.get(OTHER, id) : undefined),
    30_000,
    50,
  );
  expect(disabled).toMatchObject({ disabled: true, disabledReason: expect.stringMatching(/failed/) });
  const told = await waitFor('endpoint.disabled received', () => watcher.requests.find((r) => JSON.parse(r.body).type === 'endpoint.disabled'), 10_000, 50);
  expect(JSON.parse(told.body).data).toMatchObject({ endpointId: id, reason: disabled.disabledReason });
  const deliveries = await service.registry.deliveries(id);
  expect(deliveries.length).toBeGreaterThan(1);
  expect(deliveries.every((d) => d.result === 'failure' && d.statusCode === 503 && d.errorClass === 'http-5xx')).toBe(true);
  expect(await metrics.getSingleMetricAsString('notify_webhook_endpoints_disabled_total')).toMatch(/ 1$/m);

  // Disabled: no more deliveries are enqueued for it.
  const calls = down.requests.length;
  expect(await service.publisher.publishNotificationEvent(OTHER, notificationEvent('notification.failed', view('d2')))).toBe(0);
  expect(down.requests.length).toBe(calls);
});
