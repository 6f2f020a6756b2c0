import { isAbsolute, join, relative } from 'node:path';
import type { ManagedProcess } from './managed-process';
import type { ProcessGroup } from './process-group';

/** The repository root (this file is packages/platform-kit/src/processes/app-entries.ts). */
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

export type AppName = 'simulators' | 'api' | 'worker';

/** The .ts entry of each app, relative to the repository root. Apps are run by path, never imported. */
export interface AppEntries {
  simulators: string;
  api: string;
  worker: string;
}

export const DEFAULT_ENTRIES: AppEntries = {
  simulators: 'apps/simulators/src/main.ts',
  api: 'apps/api/src/main.ts',
  worker: 'apps/worker/src/main.ts',
};

/** Keeps an entry inside the repository: the kit runs only the platform's own code. */
export function resolveEntry(entry: string, root = REPO_ROOT): string {
  const path = isAbsolute(entry) ? entry : join(root, entry);
  const inside = relative(root, path);
  if (inside.startsWith('..') || isAbsolute(inside) || !/\.ts$/.test(path)) throw new Error(`entry ${entry} must be a .ts file inside ${root}`);
  return path;
}

/**
 * Starts one app as production runs it: `node --import tsx <entry>`. Not the tsx CLI, which
 * runs the app in a child process of its own: the pid signalled must be the app itself.
 */
export function startApp(group: ProcessGroup, spec: { name: string; entry: string; env: Record<string, string | undefined>; inheritOutput?: boolean }): ManagedProcess {
  return group.start({
    name: spec.name, command: process.execPath, args: ['--import', 'tsx', resolveEntry(spec.entry)], env: spec.env, cwd: REPO_ROOT,
    ...(spec.inheritOutput ? { inheritOutput: true } : {}),
  });
}
