import type { Redis } from 'ioredis';
import { createRedis, parseClusterNodes } from '@notify/runtime';
import { CliError } from '@notify/platform-kit';

/** How the CLI's config names a Redis Cluster (REDIS_CLUSTER_NODES): `redis-cluster://host:port,host:port`. */
export const CLUSTER_SCHEME = 'redis-cluster://';

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}

/**
 * A fail-fast connection to the platform's Redis (no offline queue, no reconnect): the CLI
 * reports "unreachable" in `timeoutMs` instead of hanging.
 */
export async function connectRedis(url: string, timeoutMs: number): Promise<Redis> {
  const clusterNodes = url.startsWith(CLUSTER_SCHEME) ? parseClusterNodes(url.slice(CLUSTER_SCHEME.length)) : undefined;
  // On a cluster the commands used here are single-slot ({notify:breaker}, {notify:procs}) or per node (redis-pause): a Cluster serves them as a Redis.
  const redis = createRedis(clusterNodes ? { url, clusterNodes } : url, 'producer', {
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    lazyConnect: false,
  }) as Redis;
  try {
    await new Promise<void>((resolve, reject) => {
      if (redis.status === 'ready') {
        resolve();
        return;
      }
      const timer = setTimeout(() => done(new Error(`not ready after ${timeoutMs} ms`)), timeoutMs);
      const onReady = () => done();
      const onEnd = () => done(new Error('connection closed'));
      let lastError: Error | undefined;
      const onError = (error: Error) => {
        lastError = error;
      };
      function done(error?: Error) {
        clearTimeout(timer);
        redis.off('ready', onReady).off('end', onEnd).off('error', onError);
        if (error) reject(lastError ?? error);
        else resolve();
      }
      redis.on('ready', onReady).on('end', onEnd).on('error', onError);
    });
  } catch (error) {
    redis.disconnect();
    throw new CliError('DEPENDENCY_UNAVAILABLE', `Redis at ${redactUrl(url)} unreachable (${(error as Error).message})`, { cause: error });
  }
  return redis;
}
