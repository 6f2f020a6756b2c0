import pino, { type Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Redis } from 'ioredis';
import { createBreakerGate, type BreakerConfig, type BreakerGate } from '@notify/pipeline';
import { createRedis, waitUntilReady } from '@notify/runtime';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { loadConfig as loadApiConfig } from '../../apps/api/src/config';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { loadConfig as loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker-runtime';
import { FAST_CASCADE_ENV, TEST_API_KEY } from '../harness/platform';
import { startTestRedis, type TestRedis } from '../harness/redis-server';

export interface GatedProcess { gate: BreakerGate; registry: Registry }

export interface GatedPlatform {
  redis: TestRedis;
  sims: RunningSimulators;
  api: RunningApi;
  workers: RunningWorker[];
  /** One gate per "process": [0] is the api's, the rest the workers'. */
  gates: GatedProcess[];
  stop(): Promise<void>;
}

/**
 * The test platform (harness/platform.ts) with a breaker gate in the api and in each worker,
 * each gate on its own fail-fast connection and registry, as separate processes would have
 * them. `stop()` closes everything in reverse order and is safe after a partial start.
 */
export async function startGatedPlatform(options: {
  workerCount: number;
  breaker: BreakerConfig;
  env?: Record<string, string>;
  /** The gates' logger (silent by default). */
  logger?: Logger;
}): Promise<GatedPlatform> {
  const logger = pino({ level: 'silent' });
  const redis = await startTestRedis();
  const closers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await redis.stop();
  };
  try {
    const sims = await startSimulators(loadSimConfig({
      SIM_CONTROL_PORT: '0', SIM_PUSH_PORT: '0', SIM_SMS_PORT: '0', SIM_EMAIL_PORT: '0', TRACKING_STORES_PORT: '0', SIM_LATENCY_MS: '5', LOG_LEVEL: 'silent',
    }));
    closers.push(() => sims.close());
    const env: Record<string, string> = {
      REDIS_URL: redis.url, API_PORT: '0', METRICS_PORT: '0', API_KEYS: `${TEST_API_KEY}:tenant-a`,
      PROVIDER_PUSH_URL: sims.providerUrls.push, PROVIDER_SMS_URL: sims.providerUrls.sms, PROVIDER_EMAIL_URL: sims.providerUrls.email,
      SHUTDOWN_GRACE_MS: '3000', LOG_LEVEL: 'silent',
      // Small lanes: several workers share 2 cores with the test itself.
      CONCURRENCY_PUSH_URGENT: '8', CONCURRENCY_PUSH_REMINDER: '4', CONCURRENCY_SMS_URGENT: '8', CONCURRENCY_SMS_REMINDER: '4',
      CONCURRENCY_EMAIL_URGENT: '8', CONCURRENCY_EMAIL_REMINDER: '4',
      ...FAST_CASCADE_ENV, ...options.env,
    };
    const gates: GatedProcess[] = [];
    const newGate = async (): Promise<BreakerGate> => {
      const connection: Redis = createRedis(redis.url, 'producer');
      closers.push(async () => { await connection.quit().catch(() => connection.disconnect()); });
      await waitUntilReady(connection);
      const registry = new Registry();
      const gate = createBreakerGate({ redis: connection, registry, logger: options.logger ?? logger, config: options.breaker });
      gates.push({ gate, registry });
      return gate;
    };
    const api = await startApi(loadApiConfig(env), logger, { gate: await newGate() });
    closers.push(() => api.close());
    const workers: RunningWorker[] = [];
    for (let i = 0; i < options.workerCount; i += 1) {
      const worker = await startWorker(loadWorkerConfig(env), logger, { gate: await newGate() });
      closers.push(() => worker.close());
      workers.push(worker);
    }
    return { redis, sims, api, workers, gates, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
