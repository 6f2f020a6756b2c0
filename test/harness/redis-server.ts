import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port';
import { waitFor } from './wait-for';

/**
 * A private redis-server for one test file: its own free port and data directory, never the
 * machine's 6379, so a test may kill, pause or restart it. `stop()` is safe to call twice.
 */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL the server (data since the last fsync is lost, like a crash). */
  kill(): Promise<void>;
  /** Start it again on the same port and directory (AOF is replayed). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestRedisOptions {
  /** Extra `redis-server` arguments, e.g. ['--maxmemory-policy', 'allkeys-lru']. */
  args?: string[];
}

export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'notify-redis-'));
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '',
    '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction',
    '--logfile', join(dir, 'redis.log'), ...(options.args ?? []),
  ];
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const proc = spawn('redis-server', args, { stdio: 'ignore' });
    child = proc;
    proc.on('error', () => undefined);
    await waitFor(`redis-server on port ${port}`, async () => {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}`);
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    });
  };

  const killChild = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    await exited;
  };

  await launch();
  let stopped = false;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => killChild('SIGKILL'),
    restart: launch,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await killChild('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
