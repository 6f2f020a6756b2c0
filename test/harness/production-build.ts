import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
// By path, not '@notify/platform-kit': jest's globalSetup runs this before any build exists, and
// outside the moduleNameMapper that maps the packages to their sources.
import { processAlive } from '../../packages/platform-kit/src/processes/process-alive';
import { waitFor } from '../../packages/platform-kit/src/services/wait-for';

/**
 * The production build (`npm run build`) of the sources as they are, made once per run and shared
 * by every test file and jest worker: the apps a test starts as processes run compiled, as
 * production does (plain `node`, no loader compiling TypeScript at every start).
 */
const ROOT = resolve(__dirname, '../..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'notify-build');
const STAMP = join(CACHE, 'sources.sha256');
const LOCK = join(CACHE, 'lock');
const run = promisify(execFile);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const workspaces = () =>
  ['apps', 'packages']
    .flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name)))
    .filter((dir) => existsSync(join(dir, 'package.json')));

/** A hash of everything the build reads: every workspace's sources and package.json, the build script, the tsconfig. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const files = [join(ROOT, 'scripts', 'build.ts'), join(ROOT, 'tsconfig.json'), ...workspaces().flatMap((dir) => filesUnder(dir))].sort();
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** Whether dist/ holds the build of these sources: the stamp names them and no workspace's dist/ was removed since. */
function stamped(hash: string): boolean {
  try {
    if (readFileSync(STAMP, 'utf8') !== hash) return false;
  } catch {
    return false;
  }
  return workspaces().every((dir) => !existsSync(join(dir, 'src')) || existsSync(join(dir, 'dist')));
}

/** Takes the build lock (a directory: made atomically), or answers false while a live process holds it. */
function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
  } catch {
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
    } catch {
      return false; // taken a moment ago, its pid not written yet
    }
    if (processAlive(holder)) return false;
    rmSync(LOCK, { recursive: true, force: true }); // its holder died mid-build
    return takeLock();
  }
  writeFileSync(join(LOCK, 'pid'), String(process.pid));
  return true;
}

/**
 * `npm run build` unless the dist/ directories are already compiled from exactly these sources
 * (the stamp is written after a build that succeeded): one build per run, however many test files
 * need it. A build running in another jest worker is waited for, not repeated.
 */
export async function buildOnce(): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const hash = sourcesHash();
  await waitFor('the production build', () => (stamped(hash) || takeLock() ? true : undefined), 180_000, 100);
  if (stamped(hash)) return;
  try {
    rmSync(STAMP, { force: true });
    await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, timeout: 120_000 });
    writeFileSync(STAMP, hash);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
