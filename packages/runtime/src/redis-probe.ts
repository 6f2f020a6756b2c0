import { Redis } from 'ioredis';

/** Where a probe connects: a Redis URL, or a host and port. */
export type RedisProbeAddress = { url: string } | { host?: string; port?: number };

export interface RedisProbeOptions {
  /** Bounds the connect (default 2 s). */
  connectTimeoutMs?: number;
  /** Bounds each command; absent: a command waits as long as the server takes. */
  commandTimeoutMs?: number;
}

/**
 * Runs `run` on one short-lived connection: no retries of its own, nothing queued, no 'error'
 * event left unhandled (a failure reaches the caller through `run`); disconnected after. The one
 * way a process checks a Redis it does not hold a connection to (start-up, readiness, a node).
 */
export async function withRedisProbe<T>(address: RedisProbeAddress, run: (redis: Redis) => Promise<T>, options: RedisProbeOptions = {}): Promise<T> {
  const settings = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    ...(options.commandTimeoutMs === undefined ? {} : { commandTimeout: options.commandTimeoutMs }),
    retryStrategy: () => null,
  };
  const redis = 'url' in address ? new Redis(address.url, settings) : new Redis({ host: address.host, port: address.port, ...settings });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}
