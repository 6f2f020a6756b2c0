import { sep } from 'node:path';

/** The apps production runs; every other app (simulators, chaos, loadgen) is tooling. */
export const PRODUCTION_APPS = ['api', 'worker'];

/**
 * What kind of tooling a repository file is (a source under `src/` or its compiled twin under
 * `dist/`), or undefined for product code. `path` is relative to the repository root.
 */
export function toolingKind(path: string): string | undefined {
  const file = path.split(sep).join('/');
  if (/\.test\.(ts|js)$/.test(file) || file.startsWith('test/')) return 'test code';
  // Test peers live behind a package's testing entry point, and are named loopback-* wherever they are.
  if (/^packages\/[^/]+\/(src|dist)\/testing\//.test(file) || /\/loopback-[^/]*\.(ts|js)$/.test(file)) return 'a test peer';
  if (file.startsWith('packages/platform-kit/')) return 'the platform kit';
  if (file.startsWith('bench/')) return 'a benchmark';
  const app = /^apps\/([^/]+)\//.exec(file)?.[1];
  if (app !== undefined && !PRODUCTION_APPS.includes(app)) return `apps/${app}`;
  return undefined;
}
