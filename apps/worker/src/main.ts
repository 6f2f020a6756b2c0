import { createLogger, runService } from '@notify/runtime';
import { loadConfig } from './config';
import { startWorker } from './worker-runtime';

runService('worker', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('worker', config.logLevel);
  for (const warning of config.warnings) logger.warn(warning);
  const worker = await startWorker(config, logger);
  // Past the grace period BullMQ hands unfinished jobs to another worker (stalled-job check).
  return { logger, graceMs: config.shutdownGraceMs, close: () => worker.close() };
});
