import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MissingBinaryError } from '../binaries/ensure-binaries';
import { ProcessGroup } from '../processes/process-group';
import type { ManagedProcess } from '../processes/managed-process';
import { runCommand } from '../processes/run-command';
import { freePort } from './free-port';
import { postgresBinDir } from './postgres-binaries';
import { initCluster } from './postgres-template';
import { ADDRESS_IN_USE, PortTakenError, retryOnPortTaken } from './port-retry';
import { waitFor } from './wait-for';
import type { PrivateService } from './private-service';

export interface PrivatePostgres extends PrivateService {
  readonly port: number;
  readonly dataDir: string;
  /** SIGKILL the server (a crash: it recovers from its WAL on restart). */
  kill(): Promise<void>;
  /** Start it again on the same port and data directory. */
  restart(): Promise<void>;
}

export interface PrivatePostgresOptions {
  /** Default: a free port (chosen again, a few times, when another process takes it first). */
  port?: number;
  /** Default: a fresh temporary directory, removed on stop. A given directory is kept (and initialised once). */
  dataDir?: string;
  /** A database created on first start besides `postgres` (npm start's `notify`); the url names it. Default `postgres`. */
  database?: string;
  /** No flushing to disk (fsync, full_page_writes off; commits still survive a kill): tests and benches. Default true. */
  fast?: boolean;
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string>;
  group?: ProcessGroup;
  env?: Record<string, string | undefined>;
  /** The server binaries' directory; default the newest Debian one (ensure it first with ensurePostgresBinaries). */
  binDir?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The postgres system user's ids (the Debian package creates it), read from /etc/passwd. */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root and there is no `postgres` system user to run PostgreSQL as (install the Debian package postgresql)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A private PostgreSQL on 127.0.0.1 (never the machine's 5432): initdb into its own directory,
 * the unix socket inside it, trust auth for local connections, waited on until it accepts
 * connections. initdb and postgres refuse to run as root, so under root (CI) both run as the
 * `postgres` system user through `runuser`, on a directory that user owns. Stopped with
 * SIGINT (fast shutdown: clients are disconnected), then SIGKILL.
 */
export async function startPrivatePostgres(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
  const env = options.env ?? process.env;
  const bin = options.binDir ?? postgresBinDir();
  if (!bin)
    throw new MissingBinaryError('PostgreSQL server binaries not found: install the Debian package postgresql (sudo apt-get install -y postgresql)', [
      'postgresql',
    ]);
  // A port of our choosing is chosen again (a few times) when another process binds it first.
  let port = options.port ?? (await freePort());
  const ownDir = options.dataDir === undefined;
  const root = options.dataDir ?? mkdtempSync(join(env.TMPDIR ?? tmpdir(), 'notify-postgres-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? postgresUser() : undefined;
  const as = (command: string, args: string[]): [string, string[]] => (user ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]);
  mkdirSync(socketDir, { recursive: true });
  if (user) {
    chownSync(root, user.uid, user.gid);
    chownSync(socketDir, user.uid, user.gid);
  }
  const database = options.database ?? 'postgres';
  const group = options.group ?? new ProcessGroup();
  const fast = options.fast ?? true;
  const settings = (): Record<string, string> => ({
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: socketDir,
    // fsync off: nothing is flushed to disk, yet every commit is written to the OS before it is
    // acknowledged (synchronous_commit stays on), so a kill() loses no committed transaction —
    // the "PostgreSQL down mid-run, nothing lost" tests rely on that; only a machine crash would.
    ...(fast ? { fsync: 'off', full_page_writes: 'off' } : {}),
    ...options.settings,
  });
  let child: ManagedProcess | undefined;

  const ready = (): Promise<boolean> =>
    new Promise((resolve) => {
      const probe = spawn(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-d', 'postgres', '-U', 'postgres'], {
        stdio: 'ignore',
        env: env,
      });
      probe.once('error', () => resolve(false));
      probe.once('exit', (code) => resolve(code === 0));
    });

  // After a kill the old postmaster may still be exiting (or not yet reaped) for a moment, and a
  // new one refuses to start while the pid in postmaster.pid is alive: wait for it to go.
  const oldPostmasterGone = async (): Promise<void> => {
    let pid: number;
    try {
      pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return;
    }
    if (!Number.isInteger(pid) || pid <= 0) return;
    await waitFor(
      `the old postmaster (pid ${pid}) to exit`,
      async () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch (error) {
          return (error as NodeJS.ErrnoException).code === 'ESRCH';
        }
      },
      10_000,
      20,
      options.signal,
    );
  };

  const launch = async (): Promise<void> => {
    await oldPostmasterGone();
    const args = ['-D', dataDir, ...Object.entries(settings()).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const [command, argv] = as(join(bin, 'postgres'), args);
    const proc = group.start({ name: `postgres-${port}`, command, args: argv, env });
    child = proc;
    try {
      await proc.waitReady(`postgres on port ${port}`, ready, {
        timeoutMs: options.timeoutMs ?? 60_000,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (proc.running || !ADDRESS_IN_USE.test(proc.output())) throw error;
      group.forget(proc);
      throw new PortTakenError(`postgres could not bind port ${port}`);
    }
  };
  const firstLaunch = (): Promise<void> =>
    options.port !== undefined
      ? launch()
      : retryOnPortTaken('postgres', async (attempt) => {
          if (attempt > 1) port = await freePort();
          await launch();
        });

  const shutdown = async (): Promise<void> => {
    const proc = child;
    if (!proc?.running) return;
    // To the whole process group: runuser and the postmaster under it.
    try {
      process.kill(-(proc.process.pid as number), 'SIGINT');
    } catch {
      /* gone */
    }
    const timer = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
    await Promise.race([proc.exited, timer]);
    await proc.kill();
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await shutdown();
    if (!options.group) await group.stopAll(1_000);
    if (ownDir) rmSync(root, { recursive: true, force: true });
  };
  try {
    const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
    if (fresh) await initCluster(dataDir, { bin, env, as, user });
    await firstLaunch();
    if (fresh && database !== 'postgres') {
      await runCommand(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database], env);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name: `postgres on 127.0.0.1:${port}`,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    dataDir,
    kill: async () => {
      await child?.kill();
    },
    restart: launch,
    stop,
  };
}
