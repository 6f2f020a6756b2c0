import pino from 'pino';
import { cascadeTimeEnv, startInProcessPlatform, type InProcessOptions, type InProcessPlatform, type PlatformParts } from '@notify/platform-kit';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { LIGHT_WARMUP_ENV } from './light-warm-up';
import { loadConfig as loadApiConfig } from '../../apps/api/src/config';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { loadConfig as loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker-runtime';

/** 32 characters: long enough for the production profile (test/ops/lifecycle.test.ts runs it). */
export const TEST_API_KEY = 'test-key-tenant-a-00000000000000';
export const OTHER_TENANT_KEY = 'test-key-tenant-b-00000000000000';

/** Tests run at 0.01 x production time: the cascade's 30 s becomes 300 ms. */
export const TEST_TIME_SCALE = 0.01;
export const FAST_CASCADE_ENV = cascadeTimeEnv(TEST_TIME_SCALE);

const logger = pino({ level: 'silent' });

/**
 * The apps, bound for @notify/platform-kit's in-process assembly (the kit never imports an app);
 * `workerNow`: the workers' step clock (default the real one).
 */
const appParts = (workerNow?: () => number): PlatformParts<RunningSimulators, RunningApi, RunningWorker> => ({
  startSimulators: (env) => startSimulators(loadSimConfig(env), logger),
  // Ready as a balancer sees it: after the start-up warm-up (/readyz says ready from then on).
  startApi: async (env, gate) => {
    const api = await startApi(loadApiConfig(env), logger, gate ? { gate } : {});
    await api.warmedUp;
    return api;
  },
  startWorker: (env, gate) => startWorker(loadWorkerConfig(env), logger, { ...(gate ? { gate } : {}), ...(workerNow ? { now: workerNow } : {}) }),
});

export type TestPlatform = InProcessPlatform<RunningSimulators, RunningApi, RunningWorker>;

/**
 * A private redis-server, the simulated providers, the api and `workerCount` workers in this
 * process (see startInProcessPlatform for the options: breaker gates per process, time scale).
 */
export function startTestPlatform(options: Omit<InProcessOptions, 'apiKeys'> & { workerNow?: () => number } = {}): Promise<TestPlatform> {
  const { workerNow, ...rest } = options;
  return startInProcessPlatform(appParts(workerNow), {
    apiKeys: `${TEST_API_KEY}:tenant-a,${OTHER_TENANT_KEY}:tenant-b`,
    timeScale: TEST_TIME_SCALE,
    ...rest,
    env: { ...LIGHT_WARMUP_ENV, ...rest.env },
  });
}

/** One more in-process worker on a running platform's env (one started later, to drain what waited). */
export function startTestWorker(platform: TestPlatform): Promise<RunningWorker> {
  return appParts().startWorker(platform.env, undefined);
}
