import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessGroup } from '../processes/process-group';
import type { ManagedProcess } from '../processes/managed-process';
import { freePort } from './free-port';
import { ADDRESS_IN_USE, isPortTaken, PortTakenError, retryOnPortTaken } from './port-retry';
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
  /** Default: a free port (chosen again, a few times, when another process takes it first). A given port taken: PortTakenError. */
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
  // A port of our choosing is chosen again when another process takes it first; a given one is the caller's to retry.
  if (options.port !== undefined) return startOn(options.port, options);
  return retryOnPortTaken('redis-server', async () => startOn(await freePort(), options));
}

/** The size of a file, 0 when it does not exist yet. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** redis-server logs to its file, not to stdout: a bind failure is read there, past what earlier starts wrote. */
function logSays(file: string, from: number, pattern: RegExp): boolean {
  try {
    return pattern.test(readFileSync(file).subarray(from).toString());
  } catch {
    return false;
  }
}

async function startOn(port: number, options: PrivateRedisOptions): Promise<PrivateRedis> {
  const ownDir = options.dataDir === undefined;
  const dir = options.dataDir ?? mkdtempSync(join(options.env?.TMPDIR ?? tmpdir(), 'notify-redis-'));
  if (!ownDir) mkdirSync(dir, { recursive: true });
  const group = options.group ?? new ProcessGroup();
  const persistence =
    options.persistence === 'none' ? ['--save', '', '--appendonly', 'no'] : ['--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'];
  const logFile = join(dir, 'redis-server.log');
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
    logFile,
    ...(options.args ?? []),
  ];
  const url = `redis://127.0.0.1:${port}`;
  let child: ManagedProcess | undefined;

  const launch = async (): Promise<void> => {
    const logFrom = sizeOf(logFile);
    const proc = group.start({ name: `redis-${port}`, command: options.redisServer ?? 'redis-server', args, env: options.env ?? process.env });
    child = proc;
    try {
      await proc.waitReady(`redis-server on port ${port}`, () => redisAnswers(url, 500), {
        timeoutMs: options.timeoutMs ?? 30_000,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (proc.running || !logSays(logFile, logFrom, ADDRESS_IN_USE)) throw error;
      group.forget(proc);
      throw new PortTakenError(`redis-server could not bind its ports (${port}${options.args?.length ? ', or one in its arguments' : ''})`);
    }
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
    // A taken port leaves nothing running; a shared group is left able to start the next attempt.
    if (!isPortTaken(error)) await stop();
    else {
      if (!options.group) await group.stopAll(0);
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    }
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
