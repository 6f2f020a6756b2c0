/**
 * `npm run build`: compiles every workspace's `src/` to its `dist/` for plain `node` in
 * production (`node apps/api/dist/main.js`), one output file per source file:
 * - the layout is kept, so `__dirname` means what it means in the sources and the Lua scripts
 *   (copied beside the code, e.g. `packages/pipeline/dist/lua/**`) are found where
 *   `join(__dirname, 'lua')` looks;
 * - the packages' `main` points at `dist/index.js`, so `require('@notify/core')` resolves to
 *   compiled code under plain node, while tsx, tsc and jest map `@notify/*` to the sources
 *   through tsconfig `paths` / jest's moduleNameMapper (development needs no build).
 * esbuild only transpiles (the tsconfig has `isolatedModules`, so per-file output is exact);
 * the type check is `npm run typecheck`. Unit tests (`*.test.ts`) are left out.
 */
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

const isSource = (file: string) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts');
const isAsset = (file: string) => !file.endsWith('.ts');

async function buildWorkspace(dir: string): Promise<number> {
  const src = join(dir, 'src');
  const dist = join(dir, 'dist');
  rmSync(dist, { recursive: true, force: true }); // no stale file of a deleted source survives
  const files = filesUnder(src);
  await build({
    entryPoints: files.filter(isSource),
    outdir: dist,
    outbase: src,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  for (const asset of files.filter(isAsset)) {
    const target = join(dist, relative(src, asset));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(asset, target);
  }
  return files.length;
}

async function main(): Promise<void> {
  const started = performance.now();
  const workspaces = ['apps', 'packages']
    .flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name)))
    .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src')));
  // A package whose `main` still names its sources would load under tsx and fail under node.
  for (const dir of workspaces.filter((d) => relative(ROOT, d).startsWith('packages'))) {
    const { main } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { main?: string };
    if (main !== 'dist/index.js') throw new Error(`${relative(ROOT, dir)}/package.json: "main" must be "dist/index.js" (found ${JSON.stringify(main)})`);
  }
  let files = 0;
  for (const dir of workspaces) files += await buildWorkspace(dir);
  process.stdout.write(`build: ${workspaces.length} workspaces, ${files} files in ${Math.round(performance.now() - started)} ms\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
