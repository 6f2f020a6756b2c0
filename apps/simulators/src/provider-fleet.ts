import { CHANNELS, type Channel } from '@notify/core';
import { DEFAULT_HTTP_SERVER_LIMITS, type HttpServerLimits } from '@notify/runtime';
import type { BehaviourPatch, ChannelBehaviour } from './channel-faults';
import { Ledger } from './ledger';
import { createProviderApp } from './provider-app';
import { RestartableServer } from './provider-server';
import { seededRandom } from './rng';

export interface ProviderFleetOptions {
  host: string;
  ports: Record<Channel, number>;
  seed: number;
  defaults: Record<Channel, ChannelBehaviour>;
  /** Timeouts and connection cap of the provider ports. @defaultValue DEFAULT_HTTP_SERVER_LIMITS */
  limits?: HttpServerLimits;
}

/** The three simulated providers with their fault switches and one shared ledger. */
export class ProviderFleet {
  readonly ledger = new Ledger();
  private readonly behaviour = new Map<Channel, ChannelBehaviour>();
  private readonly servers = new Map<Channel, RestartableServer>();

  constructor(private readonly options: ProviderFleetOptions) {
    CHANNELS.forEach((channel, index) => {
      this.behaviour.set(channel, { ...options.defaults[channel] });
      const app = createProviderApp({
        channel,
        ledger: this.ledger,
        behaviour: () => this.behaviour.get(channel) as ChannelBehaviour,
        // One stream per channel, derived from the seed: a run is repeatable per channel.
        random: seededRandom(options.seed + index * 7_919),
      });
      this.servers.set(channel, new RestartableServer(app, options.host, options.ports[channel], options.limits ?? DEFAULT_HTTP_SERVER_LIMITS));
    });
  }

  async start(): Promise<Record<Channel, string>> {
    const urls = {} as Record<Channel, string>;
    for (const channel of CHANNELS) {
      const port = await this.server(channel).start();
      urls[channel] = `http://${this.options.host}:${port}`;
    }
    return urls;
  }

  async apply(channel: Channel, patch: BehaviourPatch) {
    const next = { ...(this.behaviour.get(channel) as ChannelBehaviour), ...patch };
    this.behaviour.set(channel, next);
    if (next.mode === 'down') await this.server(channel).stop();
    else await this.server(channel).start();
    return this.channelStatus(channel);
  }

  async restore(channel: Channel) {
    return this.apply(channel, { ...this.options.defaults[channel] });
  }

  status() {
    return Object.fromEntries(CHANNELS.map((c) => [c, this.channelStatus(c)]));
  }

  async stop(): Promise<void> {
    for (const server of this.servers.values()) await server.stop();
  }

  private channelStatus(channel: Channel) {
    const server = this.server(channel);
    return { ...(this.behaviour.get(channel) as ChannelBehaviour), listening: server.listening, port: server.port };
  }

  private server(channel: Channel): RestartableServer {
    return this.servers.get(channel) as RestartableServer;
  }
}
