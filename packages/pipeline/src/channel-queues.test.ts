import { Redis } from 'ioredis';
import { ChannelQueues } from './channel-queues';

/** Nothing listens on port 1 of the loopback: every connection attempt is refused. */
const unreachable = () => new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });

describe('ChannelQueues.onError', () => {
  it("hands a queue's connection error to the listener, naming the queue, instead of BullMQ's console fallback", async () => {
    const redis = unreachable();
    const queues = new ChannelQueues(redis);
    const seen: { message: string; queue: string }[] = [];
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      queues.onError((error, queue) => seen.push({ message: error.message, queue }));
      await redis.connect().catch(() => undefined);
      for (let i = 0; i < 100 && seen.length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]?.message).toMatch(/ECONNREFUSED/);
      expect(queues.all().map((q) => q.name)).toContain(seen[0]?.queue);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      await queues.close();
      redis.disconnect();
    }
  });
});
