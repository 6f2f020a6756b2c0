import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { PRODUCTION_APPS, toolingKind } from './tooling-modules';

/**
 * The layout's dependency rule (README, under the repository map): apps depend on packages, never on each other;
 * packages never on apps; bench/ uses packages only; production code never on tooling. Checked on
 * every import, export-from and require in the TypeScript sources; an app is reached by its package
 * name or by a relative path.
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

const TS_OPTIONS = ts.getParsedCommandLineOfConfigFile(
  join(ROOT, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
)!.options;

/** Every module specifier a file names: imports (type-only too), re-exports, import(), require(), import = require(). */
function specifiersOf(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) found.push(node.expression.text);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteral(first)) found.push(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return found;
}

/**
 * The repository files reachable from `roots` through imports resolved as tsc resolves them
 * (tsconfig `paths`, so `@notify/x` and `@notify/x/testing` lead into the packages), and for
 * each the chain that reaches it. Installed libraries are not followed.
 */
function reachable(roots: readonly string[]): Map<string, string[]> {
  const chains = new Map<string, string[]>(roots.map((root) => [root, [root]]));
  const queue = [...roots];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const specifier of specifiersOf(file)) {
      const resolved = ts.resolveModuleName(specifier, file, TS_OPTIONS, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport || chains.has(resolved.resolvedFileName)) continue;
      if (relative(ROOT, resolved.resolvedFileName).startsWith('..')) continue;
      chains.set(resolved.resolvedFileName, [...chains.get(file)!, resolved.resolvedFileName]);
      queue.push(resolved.resolvedFileName);
    }
  }
  return chains;
}

/** Each tooling module production reaches, with the import chain that reaches it. */
function toolingReached(roots: readonly string[]): string[] {
  return [...reachable(roots)].flatMap(([file, chain]) => {
    const kind = toolingKind(relative(ROOT, file));
    return kind === undefined ? [] : [`${kind}: ${chain.map((f) => relative(ROOT, f)).join(' -> ')}`];
  });
}

const productionRoots = () =>
  PRODUCTION_APPS.flatMap((app) => sources(join(ROOT, 'apps', app, 'src'))).filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.d.ts'));

/** The workspace packages a package depends on, transitively (package.json dependencies). */
function workspaceDependencies(name: string, seen = new Set<string>()): Set<string> {
  const dir = [...['apps', 'packages'].flatMap((group) => readdirSync(join(ROOT, group)).map((d) => join(ROOT, group, d)))].find(
    (d) => (JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name: string }).name === name,
  );
  if (!dir) return seen;
  const { dependencies = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dependency of Object.keys(dependencies).filter((d) => d.startsWith('@notify/') && !seen.has(d))) {
    seen.add(dependency);
    workspaceDependencies(dependency, seen);
  }
  return seen;
}

describe('production code never imports tooling', () => {
  it('the api and the worker reach no platform kit, test peer, simulator, chaos, load generator, benchmark or test module, directly or through a package', () => {
    const roots = productionRoots();
    expect(roots.length).toBeGreaterThan(20);
    const reached = [...reachable(roots).keys()].map((file) => relative(ROOT, file));
    // The walk goes through the packages (by name, via tsconfig paths), not only the apps' own files.
    expect(reached).toEqual(expect.arrayContaining(['packages/providers/src/index.ts', 'packages/pipeline/src/index.ts', 'packages/core/src/index.ts']));
    expect(toolingReached(roots)).toEqual([]);
  });

  it('the api and the worker depend on no tooling package (package.json, transitively)', () => {
    for (const app of ['@notify/api', '@notify/worker']) {
      const dependencies = [...workspaceDependencies(app)];
      expect(dependencies).toContain('@notify/providers');
      expect({
        app,
        tooling: dependencies.filter((d) => ['@notify/platform-kit', '@notify/simulators', '@notify/chaos', '@notify/loadgen'].includes(d)),
      }).toEqual({ app, tooling: [] });
    }
  });

  it('sees tooling where it is imported (the check can fail): by package name, by the testing entry point, by a relative path', () => {
    const at = (path: string) => join(ROOT, path);
    expect(
      toolingReached([at('test/harness/app-process.ts')]).some((line) =>
        line.startsWith('the platform kit: test/harness/app-process.ts -> packages/platform-kit/src/index.ts'),
      ),
    ).toBe(true);
    expect(
      toolingReached([at('test/providers/real-cascade.test.ts')]).some(
        (line) => line.startsWith('a test peer:') && line.includes('packages/providers/src/testing/index.ts'),
      ),
    ).toBe(true);
    expect(
      toolingReached([at('packages/providers/src/smpp/smpp-adapter.test.ts')]).some((line) => line.includes('-> packages/providers/src/testing/index.ts')),
    ).toBe(true);
    expect(toolingKind('apps/simulators/src/main.ts')).toBe('apps/simulators');
    expect(toolingKind('bench/pipeline.ts')).toBe('a benchmark');
    expect(toolingKind('packages/providers/src/smpp/loopback-smsc.ts')).toBe('a test peer');
    expect(toolingKind('packages/providers/src/smpp/smpp-adapter.ts')).toBeUndefined();
  });
});
