import type { Channel } from '@notify/core';
import type { ProviderAdapter } from '../adapter';
import { createProviderAdapter } from './create-adapter';
import type { ProviderConfig } from './providers-file';

/** A worker's providers by name: what the breakers route to, and what the step processor calls. */
export class ProviderDirectory {
  readonly #adapters = new Map<string, ProviderAdapter>();

  constructor(adapters: readonly ProviderAdapter[]) {
    for (const adapter of adapters) {
      if (this.#adapters.has(adapter.name)) throw new Error(`provider name '${adapter.name}' is used twice`);
      this.#adapters.set(adapter.name, adapter);
    }
  }

  /** Builds every configured provider's adapter (connections open lazily or in the background, per adapter). */
  static fromConfig(configs: readonly ProviderConfig[], channels?: readonly Channel[]): ProviderDirectory {
    const wanted = channels ? configs.filter((c) => channels.includes(c.channel)) : configs;
    return new ProviderDirectory(wanted.map((c) => createProviderAdapter(c)));
  }

  /** The adapter named `name`; throws for a name no configured provider has (a routing bug, not an outcome). */
  get(name: string): ProviderAdapter {
    const adapter = this.#adapters.get(name);
    if (!adapter) throw new Error(`no provider named '${name}' is configured in this process`);
    return adapter;
  }

  all(): ProviderAdapter[] {
    return [...this.#adapters.values()];
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.all().map((a) => a.close()));
  }
}
