import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { platformSettingsKey } from '@notify/core';
import { DEFAULT_REDIS_STARTUP_TIMEOUT_MS, StartupRefusal, retryUntil } from './redis-startup';

/** A connection to the platform's Redis: one server (the default) or a Redis Cluster (`REDIS_CLUSTER_NODES`). */
export type RedisClient = Redis | Cluster;

/**
 * Where the platform's Redis is: `url` for one server, or `clusterNodes` (seed nodes of a Redis
 * Cluster; ioredis finds the rest). With cluster nodes the url's credentials, TLS and database
 * are not used: a cluster has database 0 only.
 */
export interface RedisTarget {
  url: string;
  clusterNodes?: readonly { host: string; port: number }[];
  /** How long start-up waits for this Redis (REDIS_STARTUP_TIMEOUT_MS); default 5 minutes. */
  startupTimeoutMs?: number;
}

/**
 * Connections by role, following BullMQ's production guide:
 * - `producer` (HTTP intake): fail fast. With the offline queue off, a request during a Redis
 *   outage fails at once with a 503 instead of hanging, and nothing is half-accepted.
 * - `worker`: retry forever (`maxRetriesPerRequest: null`), as BullMQ workers require; they
 *   resume by themselves when Redis comes back.
 */
export type ConnectionRole = 'producer' | 'worker';

function roleOptions(role: ConnectionRole): RedisOptions {
  return role === 'producer'
    ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 5_000 }
    : { maxRetriesPerRequest: null, enableReadyCheck: true };
}

/** Parses `REDIS_CLUSTER_NODES` (`host:port,host:port,...`); undefined when empty. */
export function parseClusterNodes(text: string | undefined): { host: string; port: number }[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return text.split(',').map((entry) => {
    const match = /^\s*([^\s:]+|\[[^\]]+\]):(\d{1,5})\s*$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) throw new Error(`'${entry.trim()}' is not host:port`);
    return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
  });
}

/**
 * One connection in `role`. A string or a target without cluster nodes: one Redis server. A
 * target with cluster nodes: an ioredis `Cluster` with the same role options on every node; in
 * the producer role the cluster's own offline queue is off too (fail fast while it has no
 * slot map), and slot moves and failovers are followed by ioredis (MOVED/ASK redirections, a
 * slot-map refresh when a node goes away).
 */
export function createRedis(url: string, role: ConnectionRole, extra?: RedisOptions): Redis;
export function createRedis(target: string | RedisTarget, role: ConnectionRole, extra?: RedisOptions): RedisClient;
export function createRedis(target: string | RedisTarget, role: ConnectionRole, extra: RedisOptions = {}): RedisClient {
  const { url, clusterNodes } = typeof target === 'string' ? { url: target, clusterNodes: undefined } : target;
  let redis: RedisClient;
  if (clusterNodes && clusterNodes.length > 0) {
    const options: ClusterOptions = {
      redisOptions: { ...roleOptions(role), ...extra, lazyConnect: false },
      enableOfflineQueue: role !== 'producer',
      enableReadyCheck: true,
      // A master lost: ask again soon (the replica's promotion takes about cluster-node-timeout).
      retryDelayOnFailover: 200,
      retryDelayOnClusterDown: 200,
      retryDelayOnTryAgain: 100,
      slotsRefreshTimeout: 2_000,
      clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
      ...(role === 'worker' ? { maxRedirections: 64 } : {}),
    };
    redis = new Cluster(
      clusterNodes.map((n) => ({ host: n.host, port: n.port })),
      options,
    );
  } else {
    redis = new Redis(url, { ...roleOptions(role), ...extra, lazyConnect: false });
  }
  // Errors surface through commands (and readiness); an unhandled 'error' event would crash the process.
  redis.on('error', () => undefined);
  return redis;
}

/** True for a Redis Cluster connection. */
export function isCluster(redis: RedisClient): redis is Cluster {
  return redis instanceof Cluster;
}

/** Waits until the connection is ready, or throws after `timeoutMs`. */
export async function waitUntilReady(redis: RedisClient, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms (status ${redis.status})`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/** The servers that hold data: the one server, or every master of a cluster. */
export function dataNodes(redis: RedisClient): Redis[] {
  return isCluster(redis) ? redis.nodes('master') : [redis];
}

/**
 * Production profile guard: queues on a Redis that may evict keys lose jobs silently, and one
 * without AOF loses accepted work on a crash. Returns the problems found (empty = fine); on a
 * cluster every master is asked.
 */
export async function checkRedisDurability(redis: RedisClient, requireAof: boolean): Promise<string[]> {
  const problems: string[] = [];
  const nodes = dataNodes(redis);
  for (const [index, node] of nodes.entries()) {
    const where = nodes.length > 1 ? ` (master ${index + 1} of ${nodes.length})` : '';
    const policy = await node.config('GET', 'maxmemory-policy');
    if (policy[1] !== 'noeviction') problems.push(`maxmemory-policy is '${policy[1]}', must be 'noeviction'${where}`);
    if (requireAof) {
      const aof = await node.config('GET', 'appendonly');
      if (aof[1] !== 'yes') problems.push(`appendonly is 'no', must be 'yes' (AOF persistence)${where}`);
    }
  }
  return problems;
}

/** Until when a connection's start-up steps may wait for it (set by connectRedis). */
const startupDeadlines = new WeakMap<RedisClient, number>();

/**
 * Connects, waits until ready and, for the production profile, refuses a Redis that could
 * lose accepted work (see `checkRedisDurability`). Every process starts its Redis this way.
 * A Redis that is down, frozen or failing over is waited for (the connection retries) until the
 * target's start-up deadline (`startupTimeoutMs`), as a running process waits for it.
 */
export async function connectRedis(url: string, role: ConnectionRole, options: { requireDurable: boolean }): Promise<Redis>;
export async function connectRedis(target: string | RedisTarget, role: ConnectionRole, options: { requireDurable: boolean }): Promise<RedisClient>;
export async function connectRedis(target: string | RedisTarget, role: ConnectionRole, options: { requireDurable: boolean }): Promise<RedisClient> {
  const timeoutMs = typeof target === 'string' ? 10_000 : (target.startupTimeoutMs ?? DEFAULT_REDIS_STARTUP_TIMEOUT_MS);
  const deadline = Date.now() + timeoutMs;
  const redis = createRedis(target, role);
  try {
    await waitUntilReady(redis, timeoutMs);
    if (options.requireDurable) {
      const problems = await retryUntil('durability check', deadline, () => checkRedisDurability(redis, true));
      if (problems.length > 0) throw new StartupRefusal(`refusing to start on a Redis that can lose accepted notifications: ${problems.join('; ')}`);
    }
    startupDeadlines.set(redis, deadline);
    return redis;
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}

/**
 * Every process must agree on PARTITIONS: a notification written to a partition no worker
 * consumes would wait forever. The first process to start records its value in Redis; a
 * process started with another one refuses to start (changing PARTITIONS is a migration,
 * docs/partitions.md).
 */
export async function checkPartitionCount(redis: RedisClient, partitions: number): Promise<void> {
  const recorded = await retryUntil('partition count check', startupDeadlines.get(redis) ?? 0, async () => {
    await redis.hsetnx(platformSettingsKey(), 'partitions', partitions);
    return Number(await redis.hget(platformSettingsKey(), 'partitions'));
  });
  if (recorded !== partitions) {
    throw new StartupRefusal(
      `PARTITIONS=${partitions}, but this Redis holds data partitioned ${recorded} ways: use PARTITIONS=${recorded} (or migrate, docs/partitions.md)`,
    );
  }
}

/** The partition count the platform on this Redis recorded at its first start (1 when none has started yet). */
export async function recordedPartitionCount(redis: RedisClient): Promise<number> {
  const recorded = Number(await redis.hget(platformSettingsKey(), 'partitions'));
  return Number.isInteger(recorded) && recorded >= 1 ? recorded : 1;
}
