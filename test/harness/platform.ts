import pino from 'pino';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { loadConfig as loadApiConfig } from '../../apps/api/src/config';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { loadConfig as loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker-runtime';
import { startTestRedis, type TestRedis } from './redis-server';

export const TEST_API_KEY = 'test-key-tenant-a-000000';
export const OTHER_TENANT_KEY = 'test-key-tenant-b-000000';

/** Time scaled down for tests: the cascade's 30 s becomes `transientDelayMs`. */
export const FAST_CASCADE_ENV = {
  CASCADE_TRANSIENT_DELAY_MS: '300',
  CASCADE_PERMANENT_DELAY_MS: '0',
  CASCADE_RECONCILE_DELAY_MS: '300',
  CASCADE_UNAVAILABLE_RETRY_MS: '300',
  PROVIDER_TIMEOUT_MS: '1500',
};

export interface TestPlatform {
  redis: TestRedis;
  sims: RunningSimulators;
  api: RunningApi;
  workers: RunningWorker[];
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Redis (private, free port), the simulated providers, the api and `workerCount` in-process
 * workers, wired together on loopback. `stop()` closes everything, in reverse order, and is
 * safe after a partial start.
 */
export async function startTestPlatform(options: { workerCount?: number; env?: Record<string, string>; simEnv?: Record<string, string> } = {}): Promise<TestPlatform> {
  const logger = pino({ level: 'silent' });
  const redis = await startTestRedis();
  const started: { close(): Promise<void> }[] = [];
  try {
    const sims = await startSimulators(loadSimConfig({
      SIM_CONTROL_PORT: '0', SIM_PUSH_PORT: '0', SIM_SMS_PORT: '0', SIM_EMAIL_PORT: '0', TRACKING_STORES_PORT: '0', SIM_LATENCY_MS: '5',
      ...options.simEnv,
    }), logger);
    started.push(sims);
    const env: Record<string, string> = {
      REDIS_URL: redis.url,
      API_PORT: '0',
      METRICS_PORT: '0',
      API_KEYS: `${TEST_API_KEY}:tenant-a,${OTHER_TENANT_KEY}:tenant-b`,
      PROVIDER_PUSH_URL: sims.providerUrls.push,
      PROVIDER_SMS_URL: sims.providerUrls.sms,
      PROVIDER_EMAIL_URL: sims.providerUrls.email,
      TRACKING_STORES_BASE_URL: sims.storesUrl,
      SHUTDOWN_GRACE_MS: '5000',
      ...FAST_CASCADE_ENV,
      ...options.env,
    };
    const api = await startApi(loadApiConfig(env), logger);
    started.push(api);
    const workers: RunningWorker[] = [];
    for (let i = 0; i < (options.workerCount ?? 1); i += 1) {
      const worker = await startWorker(loadWorkerConfig(env), logger);
      workers.push(worker);
      started.push(worker);
    }
    return {
      redis, sims, api, workers, env,
      stop: async () => {
        for (const part of started.reverse()) await part.close().catch(() => undefined);
        await redis.stop();
      },
    };
  } catch (error) {
    for (const part of started.reverse()) await part.close().catch(() => undefined);
    await redis.stop();
    throw error;
  }
}
