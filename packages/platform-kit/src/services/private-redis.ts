import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessGroup } from '../processes/process-group';
import type { ManagedProcess } from '../processes/managed-process';
import { freePort } from './free-port';
import type { PrivateService } from './private-service';
import { redisAnswers } from './redis-ping';

export interface PrivateRedis extends PrivateService {
  readonly port: number;
  /** SIGKILL the server (data since the last fsync is lost, like a crash). */
  kill(): Promise<void>;
  /** Start it again on the same port and directory (the AOF is replayed). */
  restart(): Promise<void>;
}

export interface PrivateRedisOptions {
  /** Default: a free port. */
  port?: number;
  /** Default: a fresh temporary directory, removed on stop. A given directory is kept. */
  dataDir?: string;
  /** Append-only file on (default: tests kill and restart it) or no persistence at all (scenarios). */
  persistence?: 'aof' | 'none';
  /** Extra `redis-server` arguments, e.g. ['--maxmemory-policy', 'allkeys-lru']. */
  args?: string[];
  /** The group to start it in (its stop order is then the caller's); default a group of its own. */
  group?: ProcessGroup;
  /** The environment of redis-server (PATH finds it); default ours. */
  env?: Record<string, string | undefined>;
  redisServer?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * A private redis-server on 127.0.0.1, noeviction (BullMQ needs it), waited on until it
 * answers PING. Binaries are ensured by the caller once (`ensureBinaries`), not per start.
 */
export async function startPrivateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const port = options.port ?? (await freePort());
  const ownDir = options.dataDir === undefined;
  const dir = options.dataDir ?? mkdtempSync(join(options.env?.TMPDIR ?? tmpdir(), 'notify-redis-'));
  if (!ownDir) mkdirSync(dir, { recursive: true });
  const group = options.group ?? new ProcessGroup();
  const persistence =
    options.persistence === 'none' ? ['--save', '', '--appendonly', 'no'] : ['--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'];
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    ...persistence,
    '--maxmemory-policy',
    'noeviction',
    '--logfile',
    join(dir, 'redis-server.log'),
    ...(options.args ?? []),
  ];
  const url = `redis://127.0.0.1:${port}`;
  let child: ManagedProcess | undefined;

  const launch = async (): Promise<void> => {
    const proc = group.start({ name: `redis-${port}`, command: options.redisServer ?? 'redis-server', args, env: options.env ?? process.env });
    child = proc;
    await proc.waitReady(`redis-server on port ${port}`, () => redisAnswers(url, 500), {
      timeoutMs: options.timeoutMs ?? 30_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (options.group) await group.stop(child ? [child] : [], 2_000);
    else await group.stopAll(2_000);
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name: `redis-server on 127.0.0.1:${port}`,
    port,
    url,
    kill: async () => {
      await child?.kill();
    },
    restart: launch,
    stop,
  };
}
