import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenDir, RUN_DIR_ENV } from './run-dir';

/**
 * Jest's globalSetup for the whole run: a directory of its own, where every test file notes
 * the processes it starts (for run-teardown.ts) and the private PostgreSQLs share one initdb
 * (run-setup-file.ts). Set in the environment before the workers start, so each of them, and
 * each file run in band, inherits it.
 */
export default function runSetup(): void {
  const dir = mkdtempSync(join(tmpdir(), 'notify-jest-run-'));
  mkdirSync(childrenDir(dir));
  process.env[RUN_DIR_ENV] = dir;
}
