import { isMissingBinaryError } from '../../packages/platform-kit/src/binaries/ensure-binaries';
import { ensureTestBinaries } from './binaries';
import { buildOnce } from './production-build';

/**
 * Jest globalSetup of the integration project: binaries are ensured, and the production build
 * made (the apps tests start as processes run it), once per run, not per file. A binary that
 * cannot be installed stops the run with its one line, not a stack trace.
 */
export default async function globalSetup(): Promise<void> {
  try {
    await ensureTestBinaries();
  } catch (error) {
    if (!isMissingBinaryError(error)) throw error;
    process.stderr.write(`[test setup] ${error.message}\n`);
    process.exit(1);
  }
  await buildOnce();
}
