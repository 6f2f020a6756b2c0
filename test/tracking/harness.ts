import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import { request, type Dispatcher } from 'undici';
import { createTrackingRouter, loadTrackingConfig, type TrackingRouter } from '../../apps/api/src/tracking';
import { createTrackingStoresApp, loadTrackingStoresConfig, type TrackingStores } from '../../apps/simulators/src/tracking';

export interface Running {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0; close() drops open sockets so it never waits on keep-alive. */
export async function listen(app: express.Express): Promise<Running> {
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface StoresUnderTest extends Running {
  readonly stores: TrackingStores;
  readonly registry: Registry;
}

export async function startStores(env: Record<string, string> = {}): Promise<StoresUnderTest> {
  const registry = new Registry();
  const stores = createTrackingStoresApp({ config: loadTrackingStoresConfig(env), registry, logger: pino({ level: 'silent' }) });
  const running = await listen(stores.app);
  return {
    ...running,
    stores,
    registry,
    close: async () => {
      stores.close();
      await running.close();
    },
  };
}

export interface ApiUnderTest extends Running {
  readonly router: TrackingRouter;
  readonly registry: Registry;
}

/**
 * The tracking router mounted as the api mounts it, at /v1/tracking. Load shedding on loop
 * delay is off unless `env` turns it on: these tests share one loop with their client and
 * stores, and shedding has its own deterministic tests (apps/api/src/tracking).
 */
export async function startApi(storesUrl: string, env: Record<string, string> = {}, shutdownSignal?: AbortSignal): Promise<ApiUnderTest> {
  const registry = new Registry();
  const config = loadTrackingConfig({ TRACKING_STORES_BASE_URL: storesUrl, TRACKING_SHED_LOOP_DELAY_MS: '0', ...env });
  const router = createTrackingRouter({ config, registry, logger: pino({ level: 'silent' }), shutdownSignal });
  const app = express();
  app.use('/v1/tracking', router);
  const running = await listen(app);
  return {
    ...running,
    router,
    registry,
    close: async () => {
      await running.close();
      await router.close();
    },
  };
}

export interface Timed {
  readonly status: number;
  readonly body: Record<string, unknown> & { error?: { code: string; step: string; message: string; upstreamStatus?: number } };
  readonly ms: number;
}

/** GET with wall-clock timing as the client sees it. */
export async function timedGet(url: string, dispatcher: Dispatcher, headers: Record<string, string> = {}): Promise<Timed> {
  const started = performance.now();
  const response = await request(url, { dispatcher, headers });
  const body = (await response.body.json()) as Timed['body'];
  return { status: response.statusCode, body, ms: performance.now() - started };
}

/** Reads one sample from a Prometheus text exposition (0 when absent). */
export async function sample(registry: Registry, line: string): Promise<number> {
  const text = await registry.metrics();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}
