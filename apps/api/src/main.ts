import { createLogger } from '@notify/pipeline';
import { loadConfig } from './config';
import { startApi } from './api-runtime';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger('api', config.logLevel);
  const api = await startApi(config, logger);
  logger.info({ url: api.url }, 'api listening: POST /v1/notifications, GET /metrics');
  const stop = async (signal: string) => {
    logger.info({ signal }, 'draining api');
    const hardStop = setTimeout(() => {
      logger.error('graceful stop took too long; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    hardStop.unref();
    await api.close();
    logger.info('api stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
