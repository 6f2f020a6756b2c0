import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { RECORD_LOADED_MODULES_PRELOAD, compiledApiEnv, useCompiledApps } from './compiled-build';
import { toolingKind } from './tooling-modules';

/**
 * What production loads: the compiled api and worker (`npm run build`, then plain `node
 * apps/<app>/dist/main.js`, production profile) run against a private Redis until ready, are
 * stopped, and list every module the process loaded (require.cache at exit, recorded by a
 * preload). No test peer, simulator, chaos or load tool, benchmark, test or platform-kit module
 * is among them, and no package that a package.json lists only as a devDependency (the peers'
 * smtp-server, mailparser, selfsigned; the build and test tools).
 */
const ROOT = resolve(__dirname, '../..');

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Packages the root or a workspace package.json lists under devDependencies and no package.json under dependencies. */
function declaredDevOnly(): Set<string> {
  const manifests = [ROOT, ...['apps', 'packages'].flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name)))].flatMap((dir) => {
    try {
      return [JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest];
    } catch {
      return [];
    }
  });
  const production = new Set(manifests.flatMap((m) => Object.keys(m.dependencies ?? {})));
  return new Set(manifests.flatMap((m) => Object.keys(m.devDependencies ?? {})).filter((name) => !production.has(name)));
}

/** `node_modules/@scope/name/lib/a.js` → `@scope/name` (the innermost node_modules). */
function installedPackage(file: string): string | undefined {
  const parts = file.split('node_modules/').at(-1)!.split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

const compiled = useCompiledApps();

/** Every loaded module that is tooling or a development-only package, named with what it is (the recording preload aside). */
function toolingLoaded(loaded: readonly string[]): string[] {
  const devOnly = declaredDevOnly();
  const preload = relative(ROOT, RECORD_LOADED_MODULES_PRELOAD);
  return loaded.flatMap((file) => {
    if (file === preload) return [];
    const kind = file.includes('node_modules/') ? (devOnly.has(installedPackage(file) ?? '') ? 'a dev dependency' : undefined) : toolingKind(file);
    return kind === undefined ? [] : [`${kind}: ${file}`];
  });
}

describe('the compiled api and worker load no tooling', () => {
  /** Runs the compiled app until ready, then stops it: the modules it loaded. */
  async function modulesOf(app: 'api' | 'worker', env: (port: number) => Record<string, string>): Promise<string[]> {
    // The history (on by default in production) needs a PostgreSQL; what is loaded without it is the question here.
    return (await compiled.start(app, (port) => ({ HISTORY_ENABLED: 'false', ...env(port) }))).stopAndListModules();
  }

  it('api: no test peer, simulator, chaos, load, benchmark, test or platform-kit module, no dev dependency', async () => {
    const loaded = await modulesOf('api', compiledApiEnv);
    // The record is the real thing: the compiled entry and the providers' index, which a peer re-exported from it would come with.
    expect(loaded).toEqual(expect.arrayContaining(['apps/api/dist/main.js', 'packages/providers/dist/index.js']));
    expect(toolingLoaded(loaded)).toEqual([]);
  });

  it('worker: no test peer, simulator, chaos, load, benchmark, test or platform-kit module, no dev dependency', async () => {
    const loaded = await modulesOf('worker', (port) => ({ WORKER_METRICS_HOST: '127.0.0.1', WORKER_METRICS_PORT: String(port) }));
    expect(loaded).toEqual(
      expect.arrayContaining(['apps/worker/dist/main.js', 'packages/providers/dist/index.js', 'packages/providers/dist/smpp/smpp-adapter.js']),
    );
    expect(toolingLoaded(loaded)).toEqual([]);
  });

  it('names tooling where it is loaded (the check can fail)', () => {
    expect(
      toolingLoaded([
        'packages/providers/dist/testing/index.js',
        'packages/providers/dist/smpp/loopback-smsc.js',
        'packages/platform-kit/dist/index.js',
        'apps/simulators/dist/simulators.js',
        'bench/pipeline.ts',
        'node_modules/smtp-server/lib/smtp-server.js',
        'node_modules/mailparser/node_modules/nodemailer/lib/nodemailer.js',
        'packages/providers/dist/smpp/smpp-adapter.js',
        'node_modules/nodemailer/lib/nodemailer.js',
        'node_modules/ioredis/built/index.js',
      ]),
    ).toEqual([
      'a test peer: packages/providers/dist/testing/index.js',
      'a test peer: packages/providers/dist/smpp/loopback-smsc.js',
      'the platform kit: packages/platform-kit/dist/index.js',
      'apps/simulators: apps/simulators/dist/simulators.js',
      'a benchmark: bench/pipeline.ts',
      'a dev dependency: node_modules/smtp-server/lib/smtp-server.js',
    ]);
  });
});
