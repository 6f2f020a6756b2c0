// The kit's binaries modules by path (they import only node:*), not '@notify/platform-kit': jest's
// globalSetup runs outside the module mapper, where package names resolve to build output that
// may be stale or absent.
import { ensureBinaries, type EnsureOptions } from '../../packages/platform-kit/src/binaries/ensure-binaries';
import { BINARIES } from '../../packages/platform-kit/src/binaries/known-binaries';

/** What the integration tests run on this machine (the harness starts a private redis-server per file). */
const TEST_BINARIES = [BINARIES.redisServer];

/** The harness's ensure step (jest globalSetup): install what is missing, or stop naming its package. */
export function ensureTestBinaries(options: Partial<EnsureOptions> = {}): Promise<void> {
  return ensureBinaries(TEST_BINARIES, {
    env: process.env,
    log: (line) => process.stderr.write(`[test setup] ${line}\n`),
    ...options,
  });
}
