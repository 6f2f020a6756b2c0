import { withRedisProbe } from '@notify/runtime';

/**
 * True when a Redis answers PING at `url` (one attempt, no retries, bounded by
 * `timeoutMs`): the one reachability check for private servers and `npm start`.
 */
export async function redisAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    return (await withRedisProbe({ url }, (probe) => probe.ping(), { connectTimeoutMs: timeoutMs })) === 'PONG';
  } catch {
    return false;
  }
}
