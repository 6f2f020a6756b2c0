import { isChannel, type Channel } from '@notify/core';
import { CliError, usageError } from '@notify/platform-kit';
import { loadProviderOutlines, ProvidersFileError } from '@notify/providers';
import type { ChaosConfig } from '../config';
import { createControlClient } from '../control-client';
import type { ChaosIo } from '../io';
import { applyFault, describeChannel } from './channel-commands';

/** A simulated provider the CLI can kill: its channel on the simulators process that serves it. */
export interface ProviderTarget {
  name: string;
  channel: Channel;
  controlUrl: string;
}

/**
 * Finds a provider by name: an entry of PROVIDERS_FILE (a simulator with its `controlUrl`), or
 * a channel's default simulator (named after the channel) on SIM_CONTROL_URL. A real provider
 * (SMTP, Web Push, FCM, SMPP, HTTP SMS) is not the CLI's to kill: stop its peer instead.
 */
export function findProvider(config: ChaosConfig, env: Record<string, string | undefined>, name: string): ProviderTarget {
  let outlines: ReturnType<typeof loadProviderOutlines> = [];
  if (config.providersFile !== undefined) {
    try {
      outlines = loadProviderOutlines(config.providersFile, env);
    } catch (error) {
      if (error instanceof ProvidersFileError) throw usageError(error.message);
      throw error;
    }
  }
  const entry = outlines.find((p) => p.name === name);
  if (entry) {
    if (entry.kind !== 'simulator')
      throw new CliError('REFUSED', `provider '${name}' is a ${entry.kind} provider: the chaos CLI controls simulated providers only`);
    if (entry.controlUrl === undefined)
      throw new CliError('REFUSED', `provider '${name}' has no controlUrl in PROVIDERS_FILE: the CLI cannot reach its simulators`);
    return { name, channel: entry.channel, controlUrl: entry.controlUrl.replace(/\/$/, '') };
  }
  // A channel the file does not name keeps its default simulator, named after the channel.
  if (isChannel(name) && !outlines.some((p) => p.channel === name)) return { name, channel: name, controlUrl: config.controlUrl };
  const known = [...outlines.map((p) => p.name), ...(['push', 'sms', 'email'] as const).filter((c) => !outlines.some((p) => p.channel === c))];
  throw usageError(`unknown provider '${name}'; known: ${known.join(', ')}`);
}

/** The provider answers nothing (its port is closed): the breaker of that provider alone opens; the channel's other providers carry on. */
export async function killProvider(target: ProviderTarget, timeoutMs: number, io: ChaosIo): Promise<number> {
  io.out(`provider ${target.name} (${target.channel}):`);
  return applyFault(createControlClient(target.controlUrl, timeoutMs), target.channel, { mode: 'down' }, io);
}

export async function restoreProvider(target: ProviderTarget, timeoutMs: number, io: ChaosIo): Promise<number> {
  const status = await createControlClient(target.controlUrl, timeoutMs).restore(target.channel);
  io.out(`provider ${target.name} (${target.channel}):`);
  io.out(describeChannel(target.channel, status));
  return 0;
}
