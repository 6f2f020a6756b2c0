import { Gauge, type Registry } from 'prom-client';

export interface QueueCountsSource {
  name: string;
  /** The queue's partition (PARTITIONS > 1: one queue per lane and partition); absent = 0. */
  partition?: number;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'failed'] as const;

/**
 * Queue depth by queue and state, read from Redis at scrape time (not on the hot path).
 * A failed read leaves the gauge empty for that scrape rather than failing the scrape.
 * `notify_queue_jobs` is the lane's total over the partitions read; with more than one
 * partition, `notify_queue_partition_jobs` has each partition's share (a partition that falls
 * behind shows a worker process missing from its assignment).
 */
export function registerQueueDepthGauge(registry: Registry, queues: () => readonly QueueCountsSource[]): Gauge<'queue' | 'state'> {
  const perPartition = new Gauge({
    name: 'notify_queue_partition_jobs',
    help: 'Jobs per lane, partition and state, read at scrape time (only with PARTITIONS > 1).',
    labelNames: ['queue', 'partition', 'state'] as const,
    registers: [registry],
  });
  return new Gauge({
    name: 'notify_queue_jobs',
    help: 'Jobs per queue and state (waiting, prioritized, delayed, active, failed), read at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      perPartition.reset();
      const sources = queues();
      const partitioned = sources.some((q) => (q.partition ?? 0) > 0);
      const totals = new Map<string, Record<string, number>>();
      await Promise.all(
        sources.map(async (queue) => {
          try {
            const counts = await queue.getJobCounts(...STATES);
            const total = totals.get(queue.name) ?? Object.fromEntries(STATES.map((s) => [s, 0]));
            for (const state of STATES) {
              total[state] = (total[state] ?? 0) + (counts[state] ?? 0);
              if (partitioned) perPartition.set({ queue: queue.name, partition: String(queue.partition ?? 0), state }, counts[state] ?? 0);
            }
            totals.set(queue.name, total);
          } catch {
            // Redis unreachable: /readyz reports it; the scrape still answers.
          }
        }),
      );
      for (const [name, total] of totals) for (const state of STATES) this.set({ queue: name, state }, total[state] ?? 0);
    },
  });
}
