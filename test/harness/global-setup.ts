import { ensureTestBinaries } from './binaries';

/** Jest globalSetup of the integration project: binaries are ensured once per run, not per file. */
export default async function globalSetup(): Promise<void> {
  await ensureTestBinaries();
}
