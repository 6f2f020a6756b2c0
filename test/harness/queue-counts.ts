import { Queue } from 'bullmq';
import { CHANNELS, PRIORITIES, QUEUE_PREFIX, channelQueueName } from '@notify/core';

/** Jobs waiting, prioritized, delayed or active in each channel lane. */
export function laneCounts(redisUrl: string): Promise<number>[] {
  const url = new URL(redisUrl);
  return CHANNELS.flatMap((channel) =>
    PRIORITIES.map(async (priority) => {
      const queue = new Queue(channelQueueName(channel, priority), { connection: { host: url.hostname, port: Number(url.port) }, prefix: QUEUE_PREFIX });
      try {
        const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
        return Object.values(counts).reduce((a, b) => a + b, 0);
      } finally {
        await queue.close();
      }
    }),
  );
}
