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

/** `apps/x/src/main.ts` -> `apps/x/dist/main.js`: where `npm run build` puts the compiled entry. */
export function compiledEntry(entry: string): string {
  return entry.replace(/(^|\/)src\//, '$1dist/').replace(/\.ts$/, '.js');
}

/**
 * Starts one app: `node --import tsx <entry>` in development, or with `compiled` (production,
 * after `npm run build`) plain `node --enable-source-maps <dist entry>`. Never the tsx CLI,
 * which runs the app in a child process of its own: the pid signalled must be the app itself.
 */
export function startApp(
  group: ProcessGroup,
  spec: { name: string; entry: string; env: Record<string, string | undefined>; inheritOutput?: boolean; compiled?: boolean; preload?: string },
): ManagedProcess {
  // A module `node --require`s before the entry (a test's recorder of what the app loaded).
  const preload = spec.preload ? ['--require', spec.preload] : [];
  const entryArgs = spec.compiled
    ? ['--enable-source-maps', join(REPO_ROOT, compiledEntry(relative(REPO_ROOT, resolveEntry(spec.entry))))]
    : ['--import', 'tsx', resolveEntry(spec.entry)];
  return group.start({
    name: spec.name,
    command: process.execPath,
    args: [...preload, ...entryArgs],
    env: spec.env,
    cwd: REPO_ROOT,
    ...(spec.inheritOutput ? { inheritOutput: true } : {}),
  });
}
