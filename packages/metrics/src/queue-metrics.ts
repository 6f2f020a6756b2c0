import { Gauge, type Registry } from 'prom-client';

export interface QueueCountsSource {
  name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'failed'] as const;

/**
 * Queue depth by queue and state, read from Redis at scrape time (not on the hot path).
 * A failed read leaves the gauge empty for that scrape rather than failing the scrape.
 */
export function registerQueueDepthGauge(registry: Registry, queues: () => readonly QueueCountsSource[]): Gauge<'queue' | 'state'> {
  return new Gauge({
    name: 'notify_queue_jobs',
    help: 'Jobs per queue and state (waiting, prioritized, delayed, active, failed), read at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        queues().map(async (queue) => {
          try {
            const counts = await queue.getJobCounts(...STATES);
            for (const state of STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
          } catch {
            // Redis unreachable: /readyz reports it; the scrape still answers.
          }
        }),
      );
    },
  });
}
