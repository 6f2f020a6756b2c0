import { createLogger } from '@notify/pipeline';
import { loadConfig } from './config';
import { startSimulators } from './simulators';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger('simulators', config.logLevel);
  const sims = await startSimulators(config, logger);
  logger.info({ providers: sims.providerUrls, control: sims.controlUrl, trackingStores: sims.storesUrl }, 'simulated providers and tracking stores listening');
  const stop = async (signal: string) => {
    logger.info({ signal }, 'stopping simulators');
    const hardStop = setTimeout(() => process.exit(1), 5_000);
    hardStop.unref();
    await sims.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`simulators failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
