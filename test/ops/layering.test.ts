import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layout's dependency rule (README, under the repository map): apps depend on packages, never on each other;
 * packages never on apps; bench/ uses packages only. Checked on every import, export-from and
 * require in the TypeScript sources; an app is reached by its package name or by a relative path.
 */
const ROOT = resolve(__dirname, '../..');
const APPS = readdirSync(join(ROOT, 'apps'));
const APP_PACKAGES = new Map(APPS.map((app) => [(JSON.parse(readFileSync(join(ROOT, 'apps', app, 'package.json'), 'utf8')) as { name: string }).name, app]));
const SPECIFIERS = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

/** The app a specifier in `file` reaches, if any. */
function appReached(file: string, specifier: string): string | undefined {
  const byName = APP_PACKAGES.get(specifier.split('/').slice(0, 2).join('/'));
  if (byName) return byName;
  if (!specifier.startsWith('.')) return undefined;
  const parts = relative(ROOT, resolve(dirname(file), specifier)).split(sep);
  return parts[0] === 'apps' ? parts[1] : undefined;
}

function violations(area: 'apps' | 'packages' | 'bench'): string[] {
  const found: string[] = [];
  for (const file of sources(join(ROOT, area))) {
    const own = area === 'apps' ? relative(join(ROOT, 'apps'), file).split(sep)[0] : undefined;
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      const app = appReached(file, specifier);
      if (app !== undefined && app !== own) found.push(`${relative(ROOT, file)} imports ${specifier} (apps/${app})`);
    }
  }
  return found;
}

describe('layering', () => {
  it('no app imports another app', () => {
    expect(violations('apps')).toEqual([]);
  });

  it('no package imports an app', () => {
    expect(violations('packages')).toEqual([]);
  });

  it('bench/ imports packages only', () => {
    expect(violations('bench')).toEqual([]);
  });

  it('sees an app import where one is written (the check can fail)', () => {
    const file = join(ROOT, 'bench', 'pipeline', 'example.ts');
    expect(appReached(file, '../../apps/simulators/src/provider-fleet')).toBe('simulators');
    expect(appReached(file, '@notify/worker')).toBe('worker');
    expect(appReached(file, '@notify/pipeline')).toBeUndefined();
    expect(appReached(join(ROOT, 'apps', 'api', 'src', 'x.ts'), './routes/health')).toBe('api');
  });
});
