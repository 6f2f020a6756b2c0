import { BINARIES, ensureBinaries, type EnsureOptions } from '@notify/platform-kit';

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
