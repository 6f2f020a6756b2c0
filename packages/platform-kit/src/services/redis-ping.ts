import { Redis } from 'ioredis';

/**
 * True when a Redis answers PING at `url` (one attempt, no retries, bounded by
 * `timeoutMs`): the one reachability check for private servers and `npm start`.
 */
export async function redisAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
