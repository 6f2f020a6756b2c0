import { parseChaosArgs, USAGE, type ChaosCommand } from './args';
import { breakChannel, killChannel, restoreChannel, slowChannel } from './commands/channel-commands';
import { findProvider, killProvider, restoreProvider } from './commands/provider-commands';
import { restoreAll } from './commands/restore-all';
import { restoreStore, slowStore } from './commands/store-commands';
import { killWorker } from './commands/kill-worker';
import { redisPause } from './commands/redis-pause';
import { status } from './commands/status';
import { loadChaosConfig, type ChaosConfig } from './config';
import { createControlClient } from './control-client';
import { EXIT, isCliError } from '@notify/platform-kit';
import { loadProviderRoutes } from '@notify/providers';
import type { ChaosIo } from './io';

/**
 * The chaos CLI as a function: parses `argv` (everything after `chaos`), checks it all before
 * touching anything (exit 2 on bad input), runs one command against the real simulators and
 * Redis, and returns the exit code.
 */
export async function runChaos(argv: readonly string[], io: ChaosIo): Promise<number> {
  let command: ChaosCommand;
  let config: ChaosConfig;
  try {
    const args = parseChaosArgs(argv);
    command = args.command;
    config = loadChaosConfig(io.env, args.overrides);
  } catch (error) {
    if (!isCliError(error)) throw error;
    io.err(`chaos: ${error.message}`);
    io.err("run 'npm run chaos -- help' for the commands");
    return error.exitCode;
  }
  try {
    return await execute(command, config, io);
  } catch (error) {
    io.err(`chaos: ${isCliError(error) ? error.message : error instanceof Error ? error.message : String(error)}`);
    return isCliError(error) ? error.exitCode : EXIT.failed;
  }
}

async function execute(command: ChaosCommand, config: ChaosConfig, io: ChaosIo): Promise<number> {
  const control = createControlClient(config.controlUrl, config.httpTimeoutMs);
  switch (command.kind) {
    case 'help':
      io.out(USAGE);
      return EXIT.ok;
    case 'kill-channel':
      return killChannel(control, command.channel, io);
    case 'kill-provider':
      return killProvider(findProvider(config, io.env, command.provider), config.httpTimeoutMs, io);
    case 'restore-provider':
      return restoreProvider(findProvider(config, io.env, command.provider), config.httpTimeoutMs, io);
    case 'break-channel':
      return breakChannel(control, command.channel, command.rate, io);
    case 'slow-channel':
      return slowChannel(control, command.channel, command.ms, io);
    case 'slow-store':
      return slowStore(config.storesUrl, command.store, io);
    case 'restore':
      if (command.target === 'all') return restoreAll(control, config.storesUrl, io);
      if (command.target === 'tariff') return restoreStore(config.storesUrl, command.target, io);
      return restoreChannel(control, command.target, io);
    case 'kill-worker':
      return killWorker(config.redisUrl, config.redisTimeoutMs, command.role, io);
    case 'redis-pause':
      return redisPause(config.redisUrl, config.redisTimeoutMs, command.ms, io);
    case 'status':
      // Breakers are per provider: PROVIDERS_FILE names them (without it, one per channel).
      return status(control, config.storesUrl, config.redisUrl, config.redisTimeoutMs, command.json, io, loadProviderRoutes(config.providersFile));
  }
}
