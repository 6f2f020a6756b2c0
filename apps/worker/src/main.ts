import { createLogger } from '@notify/pipeline';
import { loadConfig } from './config';
import { startWorker } from './worker-runtime';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger('worker', config.logLevel);
  const worker = await startWorker(config, logger);
  const stop = async (signal: string) => {
    logger.info({ signal }, 'draining worker: finishing in-flight calls');
    const hardStop = setTimeout(() => {
      logger.error('graceful stop took too long; exiting (BullMQ will hand unfinished jobs to another worker)');
      process.exit(1);
    }, config.shutdownGraceMs);
    hardStop.unref();
    await worker.close();
    logger.info('worker stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
