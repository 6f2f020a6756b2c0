import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBinaries, MissingBinaryError, type EnsureOptions } from '../binaries/ensure-binaries';
import { BINARIES } from '../binaries/known-binaries';

/** Debian installs the server binaries per major version, off PATH. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The newest /usr/lib/postgresql/<major>/bin holding initdb and postgres, or undefined. */
export function postgresBinDir(root = DEBIAN_ROOT): string | undefined {
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
  }
  return undefined;
}

/**
 * Makes sure PostgreSQL's server binaries exist (apt package `postgresql`, like ensureBinaries
 * for the others) and returns their directory. ensureBinaries only searches PATH, which
 * Debian's server directory is not on: a successful install is recognised by the directory.
 */
export async function ensurePostgresBinaries(options: EnsureOptions): Promise<string> {
  const before = postgresBinDir();
  if (before) return before;
  try {
    await ensureBinaries([BINARIES.postgres], options);
  } catch (error) {
    if (!postgresBinDir()) throw error;
  }
  const after = postgresBinDir();
  if (!after)
    throw new MissingBinaryError(
      `initdb not found under ${DEBIAN_ROOT}/<version>/bin: install the Debian package postgresql (sudo apt-get install -y postgresql) and run this again`,
      ['postgresql'],
    );
  return after;
}
