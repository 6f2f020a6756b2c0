import { createLogger, runService, waitForRedis } from '@notify/runtime';
import { startApi } from './api-runtime';
import { loadConfig } from './config';

runService('api', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('api', config.logLevel);
  for (const warning of config.warnings) logger.warn(warning);
  // Started while Redis is down, frozen or failing over: wait for it (bounded, logged) instead of exiting.
  await waitForRedis(config.redis, logger);
  const api = await startApi(config, logger);
  logger.info({ url: api.url, metrics: api.metricsUrl }, 'api listening: POST /v1/notifications, GET /v1/tracking/:id; /metrics on its own listener');
  // The api's own drain waits up to shutdownGraceMs for requests; allow a little more in all.
  return { logger, graceMs: config.shutdownGraceMs + 5_000, close: () => api.close() };
});
