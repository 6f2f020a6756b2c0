import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { BinaryNeed } from './known-binaries';

/** A binary is missing and this kit may not (or could not) install it; the message is one line naming the package. */
export class MissingBinaryError extends Error {
  readonly code = 'MISSING_BINARY' as const;
  constructor(
    message: string,
    readonly packages: readonly string[],
  ) {
    super(message);
    this.name = 'MissingBinaryError';
  }
}

export function isMissingBinaryError(error: unknown): error is MissingBinaryError {
  return error instanceof MissingBinaryError;
}

export interface EnsureOptions {
  /** The environment whose PATH is searched and passed to apt (the caller's process.env). */
  env: Record<string, string | undefined>;
  /** Where to say what happens (installing ...). */
  log: (line: string) => void;
  /** Defaults to the real uid; tests inject it to reach the sudo and no-permission branches. */
  isRoot?: boolean;
}

/** The absolute path of `name` on `path`, or undefined (what `command -v` does, without a shell). */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Makes sure every binary in `needs` is on PATH. Missing ones are installed with apt when the
 * user may (root, or passwordless sudo), saying so, the way .ci/run does; otherwise this throws
 * a MissingBinaryError whose one-line message names the package and the command to run.
 */
export async function ensureBinaries(needs: readonly BinaryNeed[], options: EnsureOptions): Promise<void> {
  const path = options.env.PATH;
  const missing = needs.filter((need) => findOnPath(need.binary, path) === undefined);
  if (missing.length === 0) return;
  const names = missing.map((m) => m.binary).join(', ');
  const packages = [...new Set(missing.map((m) => m.aptPackage))];
  const install = `sudo apt-get install -y ${packages.join(' ')}`;
  const stop = (why: string) =>
    new MissingBinaryError(`${names} not found on PATH; ${why}: install the Debian package ${packages.join(' ')} (${install}) and run this again`, packages);

  const aptGet = findOnPath('apt-get', path);
  if (aptGet === undefined) throw stop('apt-get is not available here');
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  const sudo = isRoot ? undefined : findOnPath('sudo', path);
  if (!isRoot && (sudo === undefined || spawnSync(sudo, ['-n', 'true'], { stdio: 'ignore', env: options.env }).status !== 0)) {
    throw stop('not root and no passwordless sudo');
  }
  options.log(`${names} not found: installing ${packages.join(' ')} with apt${sudo ? ' (sudo)' : ''}`);
  const apt = (args: string[]) =>
    sudo
      ? runInstaller(sudo, ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', aptGet, ...args], options.env)
      : runInstaller(aptGet, args, { ...options.env, DEBIAN_FRONTEND: 'noninteractive' });
  if ((await apt(['update', '-qq'])) !== 0) throw stop('apt-get update failed');
  if ((await apt(['install', '-y', '-qq', '--no-install-recommends', ...packages])) !== 0) throw stop('apt-get install failed');
  const still = missing.filter((need) => findOnPath(need.binary, path) === undefined);
  if (still.length > 0) throw stop(`apt-get installed ${packages.join(' ')} but ${still.map((s) => s.binary).join(', ')} is still not on PATH`);
}

/** Runs apt with its output on our stderr (stdout stays the caller's), resolving with the exit code. */
function runInstaller(command: string, args: string[], env: Record<string, string | undefined>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 2, 2] });
    child.once('error', () => resolve(127));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}
