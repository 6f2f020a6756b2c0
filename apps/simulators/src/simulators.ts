import type { Server } from 'node:http';
import type { Express } from 'express';
import { createLimitedServer, listenOn, type HttpServerLimits } from '@notify/runtime';
import pino, { type Logger } from 'pino';
import type { Channel } from '@notify/core';
import { createRegistry } from '@notify/metrics';
import type { SimulatorsConfig } from './config';
import { createControlApp } from './control-app';
import { ProviderFleet } from './provider-fleet';
import { createTrackingStoresApp, type TrackingStores } from './tracking';

export interface RunningSimulators {
  fleet: ProviderFleet;
  stores: TrackingStores;
  providerUrls: Record<Channel, string>;
  controlUrl: string;
  storesUrl: string;
  close(): Promise<void>;
}

async function listen(app: Express, port: number, host: string, limits: HttpServerLimits): Promise<{ server: Server; url: string }> {
  const server = createLimitedServer(app, limits);
  const bound = await listenOn(server, port, host);
  return { server, url: `http://${host}:${bound}` };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Starts the simulated providers, their control plane (with /metrics) and the simulated
 * tracking stores. Used by main.ts and by the integration tests.
 */
export async function startSimulators(config: SimulatorsConfig, logger: Logger = pino({ level: 'silent' })): Promise<RunningSimulators> {
  const registry = createRegistry('simulators');
  const fleet = new ProviderFleet({ host: config.host, ports: config.ports, seed: config.seed, defaults: config.defaults, limits: config.http });
  const stores = createTrackingStoresApp({ config: config.stores, registry, logger });
  const opened: Server[] = [];
  try {
    const providerUrls = await fleet.start();
    const control = await listen(createControlApp(fleet, registry), config.controlPort, config.host, config.http);
    opened.push(control.server);
    const storesServer = await listen(stores.app, config.stores.port, config.stores.host, config.http);
    opened.push(storesServer.server);
    return {
      fleet,
      stores,
      providerUrls,
      controlUrl: control.url,
      storesUrl: storesServer.url,
      close: async () => {
        stores.close();
        for (const server of opened) await closeServer(server);
        await fleet.stop();
      },
    };
  } catch (error) {
    stores.close();
    for (const server of opened) await closeServer(server);
    await fleet.stop();
    throw error;
  }
}
