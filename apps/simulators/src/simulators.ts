import type { Server } from 'node:http';
import type { Channel } from '@notify/core';
import type { SimulatorsConfig } from './config';
import { createControlApp } from './control-app';
import { ProviderFleet } from './provider-fleet';

export interface RunningSimulators {
  fleet: ProviderFleet;
  providerUrls: Record<Channel, string>;
  controlUrl: string;
  close(): Promise<void>;
}

/** Starts the providers and the control plane (used by main.ts and by the integration tests). */
export async function startSimulators(config: SimulatorsConfig): Promise<RunningSimulators> {
  const fleet = new ProviderFleet({ host: config.host, ports: config.ports, seed: config.seed, defaults: config.defaults });
  const providerUrls = await fleet.start();
  const control = createControlApp(fleet);
  const server: Server = await new Promise((resolve, reject) => {
    const s = control.listen(config.controlPort, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const controlPort = address && typeof address === 'object' ? address.port : config.controlPort;
  return {
    fleet,
    providerUrls,
    controlUrl: `http://${config.host}:${controlPort}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fleet.stop();
    },
  };
}
