import { join } from 'node:path';
import { REPO_ROOT, freePort, httpOk, type ManagedProcess, type ProcessGroup } from '@notify/platform-kit';

/** A bench reference script (bench/references/*.ts) as its own node process, ready on /readyz. */
export async function startReference(
  group: ProcessGroup,
  name: string,
  file: string,
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<{ url: string; child: ManagedProcess }> {
  const port = await freePort();
  const child = group.start({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', join(REPO_ROOT, 'bench', 'references', file)],
    env: { ...process.env, ...env, PORT: String(port) },
    cwd: REPO_ROOT,
  });
  const url = `http://127.0.0.1:${port}`;
  await child.waitReady(name, () => httpOk(`${url}/readyz`), { timeoutMs: 30_000, signal });
  return { url, child };
}
