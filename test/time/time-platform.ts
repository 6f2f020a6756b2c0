import { simulatorControl, type SimulatorControl } from '../harness/sim-control';
import { startTestPlatform, type TestPlatform } from '../harness/platform';

/**
 * One test platform per file at 0.1 x production time (the wait after a transient error is 3 s:
 * long enough to act inside it), breakers off (a channel made to fail must not open one that a
 * later test then sees), the simulators back to their defaults after each test.
 */
export function useTimePlatform(): { platform: () => TestPlatform; sims: () => SimulatorControl } {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    platform = await startTestPlatform({ timeScale: 0.1, env: { BREAKER_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });
  const sims = () => simulatorControl(() => (platform as TestPlatform).sims.controlUrl);
  afterEach(async () => {
    await sims().control('/control/restore');
  });
  return { platform: () => platform as TestPlatform, sims };
}
