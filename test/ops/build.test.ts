import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compiledApiEnv, useCompiledApps } from './compiled-build';

const ROOT = resolve(__dirname, '../..');

/** Names of the packages the lockfile installs for development only (`"dev": true`). */
function devOnlyPackages(): Set<string> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  return new Set(
    Object.entries(lock.packages)
      .filter(([path, entry]) => path.includes('node_modules/') && entry.dev === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
}

/** `/x/node_modules/@scope/name/lib/a.js` → `@scope/name` (the innermost node_modules). */
function packageOf(file: string): string | undefined {
  const at = file.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const parts = file.slice(at + '/node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith(suffix));
}

// The build itself is part of the test: what runs below is compiled from the current sources (built once per run).
const compiled = useCompiledApps();

it('compiles each service entry to dist/ and puts every Lua script beside the compiled code that reads it', () => {
  for (const app of ['api', 'worker', 'simulators']) expect(existsSync(join(ROOT, 'apps', app, 'dist', 'main.js'))).toBe(true);
  const src = join(ROOT, 'packages/pipeline/src');
  const lua = filesUnder(src, '.lua');
  expect(lua.length).toBeGreaterThan(0);
  const missing = lua.filter((file) => !existsSync(join(ROOT, 'packages/pipeline/dist', file)));
  expect(missing).toEqual([]);
  // No unit test is shipped.
  expect(filesUnder(join(ROOT, 'packages/core/dist'), '.test.js')).toEqual([]);
});

it('runs the compiled api with plain node in production mode: health answers, no dev dependency and no TypeScript is loaded', async () => {
  const api = await compiled.start('api', compiledApiEnv);
  const { port } = api;
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  // The compiled admin console (its pages and bull-board's static UI come from disk too).
  const signIn = await fetch(`http://127.0.0.1:${port}/admin/login`);
  expect(signIn.status).toBe(200);
  expect(await signIn.text()).toContain('name="key"');

  const loaded = await api.stopAndListModules();
  expect(loaded).toContain(join('apps', 'api', 'dist', 'main.js'));
  expect(loaded).toContain(join('packages', 'pipeline', 'dist', 'index.js'));
  expect(loaded.filter((file) => file.endsWith('.ts'))).toEqual([]);
  const dev = devOnlyPackages();
  expect(dev.has('tsx')).toBe(true); // the check below means something only if the lock marks it
  expect(loaded.filter((file) => dev.has(packageOf(file) ?? ''))).toEqual([]);
});

it('keeps the build tools out of the production dependencies', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    scripts: Record<string, string>;
  };
  for (const tool of ['tsx', 'esbuild', 'typescript']) {
    expect(pkg.dependencies[tool]).toBeUndefined();
    expect(pkg.devDependencies[tool]).toBeDefined();
  }
  expect(pkg.scripts.build).toBeDefined();
});
