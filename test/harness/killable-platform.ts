import { killableWorkers } from './app-process';
import { startTestPlatform, type TestPlatform } from './platform';

/**
 * A test file's platform whose workers are real processes it may SIGKILL: the api in-process,
 * no in-process worker, providers answering in ~40 ms. `workers.start()` adds one; every one
 * is ended before the platform stops. `env`: for the api and the workers, over the defaults.
 */
export function useKillablePlatform(options: { env?: Record<string, string> } = {}): {
  platform: () => TestPlatform;
  workers: ReturnType<typeof killableWorkers>;
} {
  let platform: TestPlatform | undefined;
  const workers = killableWorkers(() => (platform as TestPlatform).env);
  beforeAll(async () => {
    platform = await startTestPlatform({ workerCount: 0, simEnv: { SIM_LATENCY_MS: '40' }, env: options.env ?? {} });
  });
  afterAll(async () => {
    await workers.killAll();
    await platform?.stop();
  });
  return { platform: () => platform as TestPlatform, workers };
}
