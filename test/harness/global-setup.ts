import { isMissingBinaryError } from '../../packages/platform-kit/src/binaries/ensure-binaries';
import { ensureTestBinaries } from './binaries';

/**
 * Jest globalSetup of the integration project: binaries are ensured once per run, not per
 * file. A binary that cannot be installed stops the run with its one line, not a stack trace.
 */
export default async function globalSetup(): Promise<void> {
  try {
    await ensureTestBinaries();
  } catch (error) {
    if (!isMissingBinaryError(error)) throw error;
    process.stderr.write(`[test setup] ${error.message}\n`);
    process.exit(1);
  }
}
