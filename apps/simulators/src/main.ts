import { createLogger, runService } from '@notify/runtime';
import { loadConfig } from './config';
import { startSimulators } from './simulators';

runService('simulators', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('simulators', config.logLevel);
  const sims = await startSimulators(config, logger);
  logger.info({ providers: sims.providerUrls, control: sims.controlUrl, trackingStores: sims.storesUrl }, 'simulated providers and tracking stores listening');
  return { logger, graceMs: 5_000, close: () => sims.close() };
});
