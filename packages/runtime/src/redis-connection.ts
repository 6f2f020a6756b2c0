import { Redis, type RedisOptions } from 'ioredis';

/**
 * Connections by role, following BullMQ's production guide:
 * - `producer` (HTTP intake): fail fast. With the offline queue off, a request during a Redis
 *   outage fails at once with a 503 instead of hanging, and nothing is half-accepted.
 * - `worker`: retry forever (`maxRetriesPerRequest: null`), as BullMQ workers require; they
 *   resume by themselves when Redis comes back.
 */
export type ConnectionRole = 'producer' | 'worker';

export function createRedis(url: string, role: ConnectionRole, extra: RedisOptions = {}): Redis {
  const options: RedisOptions =
    role === 'producer'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 5_000 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true };
  const redis = new Redis(url, { ...options, ...extra, lazyConnect: false });
  // Errors surface through commands (and readiness); an unhandled 'error' event would crash the process.
  redis.on('error', () => undefined);
  return redis;
}

/** Waits until the connection is ready, or throws after `timeoutMs`. */
export async function waitUntilReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
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

/**
 * Production profile guard: queues on a Redis that may evict keys lose jobs silently, and one
 * without AOF loses accepted work on a crash. Returns the problems found (empty = fine).
 */
export async function checkRedisDurability(redis: Redis, requireAof: boolean): Promise<string[]> {
  const problems: string[] = [];
  const policy = await redis.config('GET', 'maxmemory-policy');
  if (policy[1] !== 'noeviction') problems.push(`maxmemory-policy is '${policy[1]}', must be 'noeviction'`);
  if (requireAof) {
    const aof = await redis.config('GET', 'appendonly');
    if (aof[1] !== 'yes') problems.push("appendonly is 'no', must be 'yes' (AOF persistence)");
  }
  return problems;
}

/**
 * Connects, waits until ready and, for the production profile, refuses a Redis that could
 * lose accepted work (see `checkRedisDurability`). Every process starts its Redis this way.
 */
export async function connectRedis(url: string, role: ConnectionRole, options: { requireDurable: boolean }): Promise<Redis> {
  const redis = createRedis(url, role);
  try {
    await waitUntilReady(redis);
    if (options.requireDurable) {
      const problems = await checkRedisDurability(redis, true);
      if (problems.length > 0) throw new Error(`refusing to start on a Redis that can lose accepted notifications: ${problems.join('; ')}`);
    }
    return redis;
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}
