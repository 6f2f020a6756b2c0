import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHILD_LEDGER_ENV } from './child-ledger-env';

/**
 * Jest's globalSetup for the whole run: a directory of its own where every test file notes the
 * processes it starts (record-children.ts), for run-teardown.ts. Set in the environment before
 * the workers start, so each of them, and each file run in band, inherits it.
 */
export default function runSetup(): void {
  process.env[CHILD_LEDGER_ENV] = mkdtempSync(join(tmpdir(), 'notify-jest-children-'));
}
