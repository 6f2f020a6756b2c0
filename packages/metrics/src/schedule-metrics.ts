import { Counter, Histogram, type Registry } from 'prom-client';
import { scrapedGauge } from './scraped-gauge';

/** Release lateness: fine below the 1 s bound (docs/scheduling.md), then the sweeper's minute. */
export const RELEASE_LATENESS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * The releaser's and the parker's metrics (scheduled notifications moving to their lanes when
 * due; far-future ones parked in PostgreSQL and promoted back). Read at scrape time: `waiting`,
 * the entries of this process's partitions' due indexes; `parkedCount`, their parked rows (0
 * without the history).
 */
export function createScheduleMetrics(registry: Registry, waiting: () => Promise<number>, parkedCount: () => Promise<number> = () => Promise.resolve(0)) {
  const registers = [registry];
  return {
    scheduled: scrapedGauge(
      registry,
      'notify_scheduled_notifications',
      'Scheduled notifications not yet due (the due indexes of the partitions this worker releases).',
      waiting,
    ),
    parkedNow: scrapedGauge(
      registry,
      'notify_schedule_parked_notifications',
      "Scheduled notifications parked in PostgreSQL until the promote lead before their sendAt (this worker's partitions; aggregate with max).",
      parkedCount,
    ),
    parked: new Counter({
      name: 'notify_schedule_parked_total',
      help: 'Scheduled notifications parked: their records moved from Redis to PostgreSQL, a compact stub left behind.',
      registers,
    }),
    promoted: new Counter({
      name: 'notify_schedule_promoted_total',
      help: 'Parked notifications brought back to Redis (scheduled, in the due index) ahead of their sendAt.',
      registers,
    }),
    released: new Counter({
      name: 'notify_schedule_released_total',
      help: 'Scheduled notifications released to their lanes when due, by priority.',
      labelNames: ['priority'] as const,
      registers,
    }),
    lateness: new Histogram({
      name: 'notify_schedule_release_lateness_seconds',
      help: 'How long after its sendAt a scheduled notification was released (Redis clock), by priority; never negative.',
      labelNames: ['priority'] as const,
      buckets: RELEASE_LATENESS_BUCKETS,
      registers,
    }),
  };
}

export type ScheduleMetrics = ReturnType<typeof createScheduleMetrics>;
