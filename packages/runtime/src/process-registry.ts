import { hostname } from 'node:os';
import type { RedisClient } from './redis-connection';
import { processIndexKey, processKey } from '@notify/core';

/** A running platform process, as the chaos CLI finds it to kill it. No PII: pid, host, roles. */
export interface ProcessInfo {
  /** `<host>-<pid>-<startedAt>`: unique even when a pid is reused. */
  id: string;
  /** Which app: 'worker', 'api'... */
  app: string;
  pid: number;
  host: string;
  /** The channel bulkheads it runs (a worker's WORKER_ROLES). */
  roles: string[];
  startedAt: number;
  metricsUrl?: string;
}

export interface RegistrationOptions {
  /** How often the registration is refreshed. */
  heartbeatMs: number;
  /** The registration disappears this long after the last heartbeat. @defaultValue 3 x heartbeatMs */
  ttlMs?: number;
  /** Heartbeat failures (Redis away): the next heartbeat retries; nothing else to do. */
  onError?: (error: unknown) => void;
}

export interface ProcessRegistration {
  readonly id: string;
  /** Stops the heartbeat and removes the registration (a graceful stop; a SIGKILL lets it expire). */
  stop(): Promise<void>;
}

/**
 * Registers this process in Redis with a heartbeat: a key with a TTL (Redis expires it, so no
 * clock is compared across hosts) plus an index set for listing without SCAN. A process that
 * dies without `stop()` vanishes from `listProcesses` within the TTL.
 */
export async function registerProcess(
  redis: RedisClient,
  info: Omit<ProcessInfo, 'id' | 'startedAt' | 'pid' | 'host'> & Partial<Pick<ProcessInfo, 'pid' | 'host' | 'startedAt'>>,
  options: RegistrationOptions,
): Promise<ProcessRegistration> {
  if (!(options.heartbeatMs > 0)) throw new RangeError('heartbeatMs must be > 0');
  const ttlMs = options.ttlMs ?? options.heartbeatMs * 3;
  if (ttlMs <= options.heartbeatMs) throw new RangeError('ttlMs must exceed heartbeatMs, or the registration blinks out between beats');
  const full: ProcessInfo = {
    ...info,
    pid: info.pid ?? process.pid,
    host: info.host ?? hostname(),
    startedAt: info.startedAt ?? Date.now(),
    id: '',
  };
  full.id = `${full.host}-${full.pid}-${full.startedAt}`;
  const value = JSON.stringify(full);
  const beat = async () => {
    await redis.multi().set(processKey(full.id), value, 'PX', ttlMs).sadd(processIndexKey(), full.id).exec();
  };
  await beat();
  let pending = false;
  const timer = setInterval(() => {
    if (pending) return; // the last beat is still queued (Redis away): do not pile them up
    pending = true;
    beat()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        pending = false;
      });
  }, options.heartbeatMs);
  timer.unref();
  let stopped: Promise<void> | undefined;
  return {
    id: full.id,
    stop: () => {
      stopped ??= (async () => {
        clearInterval(timer);
        await removeProcess(redis, full.id);
      })();
      return stopped;
    },
  };
}

/** Live registrations, oldest first; index entries whose key expired are pruned. */
export async function listProcesses(redis: RedisClient): Promise<ProcessInfo[]> {
  const ids = await redis.smembers(processIndexKey());
  if (ids.length === 0) return [];
  const values = await redis.mget(...ids.map((id) => processKey(id)));
  const live: ProcessInfo[] = [];
  const expired: string[] = [];
  ids.forEach((id, i) => {
    const value = values[i];
    if (value === null || value === undefined) {
      expired.push(id);
      return;
    }
    try {
      live.push(JSON.parse(value) as ProcessInfo);
    } catch {
      expired.push(id);
    }
  });
  if (expired.length > 0) await redis.srem(processIndexKey(), ...expired);
  return live.sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id));
}

/** Forgets a registration now (after a kill, so `status` does not show a dead process). */
export async function removeProcess(redis: RedisClient, id: string): Promise<void> {
  await redis.multi().del(processKey(id)).srem(processIndexKey(), id).exec();
}
