import { EXIT } from '@notify/platform-kit';
import { dataNodes } from '@notify/runtime';
import type { ChaosIo } from '../io';
import { connectRedis, redactUrl } from './redis-connect';

/**
 * CLIENT PAUSE <ms> ALL on the platform's Redis: every client's commands wait (BullMQ,
 * intake, the breakers' fail-open timeout). Redis ends the pause by itself; it cannot be cut
 * short (Redis 7.0 holds CLIENT UNPAUSE too while ALL is paused), which is why --ms is capped.
 */
export async function redisPause(url: string, timeoutMs: number, ms: number, io: ChaosIo): Promise<number> {
  const redis = await connectRedis(url, timeoutMs);
  try {
    // On a cluster: every master (a Redis alone: itself).
    await Promise.all(dataNodes(redis).map((node) => node.call('CLIENT', 'PAUSE', String(ms), 'ALL')));
  } finally {
    // Not QUIT: it would wait for the pause to end.
    redis.disconnect();
  }
  const until = new Date(Date.now() + ms).toISOString().slice(11, 23);
  io.out(`Redis at ${redactUrl(url)} paused for ${ms} ms (until ${until} UTC); it resumes by itself`);
  return EXIT.ok;
}
