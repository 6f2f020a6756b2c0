import { rmSync } from 'node:fs';
// By path, not '@notify/platform-kit': globalTeardown runs outside jest's module mapper.
import { killLeftovers } from '../../packages/platform-kit/src/processes/child-ledger';
import { childrenDir, RUN_DIR_ENV } from './run-dir';

/**
 * Jest's globalTeardown: every process a test file started and never saw exit (a worker killed
 * after a timeout, a clean-up that did not run) is SIGKILLed with its process group, and named.
 */
export default function runTeardown(): void {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir) return;
  const killed = killLeftovers(childrenDir(dir));
  if (killed.length > 0) process.stderr.write(`[test teardown] killed ${killed.length} process group(s) left running by the tests: ${killed.join(', ')}\n`);
  rmSync(dir, { recursive: true, force: true });
}
