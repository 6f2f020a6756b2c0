import { chmodSync, chownSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runCommand } from '../processes/run-command';

/** initdb's arguments besides the directory: the same for every private PostgreSQL. */
const INITDB_FLAGS = ['-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'];

/**
 * initdb takes seconds (most of a private PostgreSQL's start) and writes the same files every
 * time: a run that starts many (a test suite) may initdb once into `dir` and copy that
 * directory for each fresh start. Undefined (the default) runs initdb for each one.
 */
let templateRoot: string | undefined;

export function shareInitdbIn(dir: string | undefined): void {
  templateRoot = dir;
}

export interface InitdbContext {
  bin: string;
  env: Record<string, string | undefined>;
  /** The command as the user PostgreSQL runs as (runuser under root). */
  as: (command: string, args: string[]) => [string, string[]];
  /** That user's ids under root, so that it owns what it must write. */
  user: { uid: number; gid: number } | undefined;
}

/** A new cluster in `dataDir`: initdb there, or a copy of the run's one initdb (made by the first start that needs it). */
export async function initCluster(dataDir: string, c: InitdbContext): Promise<void> {
  const initdb = (dir: string) => {
    const [command, argv] = c.as(join(c.bin, 'initdb'), ['-D', dir, ...INITDB_FLAGS]);
    return runCommand(command, argv, c.env);
  };
  if (!templateRoot) return void (await initdb(dataDir));
  const parent = join(templateRoot, 'postgres');
  // One per server version (the bin directory's parent is /usr/lib/postgresql/<major>).
  const template = join(parent, `initdb-${basename(dirname(c.bin))}`);
  if (!existsSync(join(template, 'PG_VERSION'))) {
    mkdirSync(parent, { recursive: true });
    if (c.user) {
      chmodSync(templateRoot, 0o755);
      chownSync(parent, c.user.uid, c.user.gid);
    }
    // Built aside and renamed into place: two files starting at once never copy a half-made one.
    const building = `${template}.${process.pid}.${Date.now()}`;
    await initdb(building);
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
  }
  const [command, argv] = c.as('cp', ['-a', template, dataDir]);
  await runCommand(command, argv, c.env);
}
