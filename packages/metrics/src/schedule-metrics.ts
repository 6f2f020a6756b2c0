import type { Registry } from 'prom-client';
import { counter, histogram } from './metric-factories';
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
    parked: counter(
      registry,
      'notify_schedule_parked_total',
      'Scheduled notifications parked: their records moved from Redis to PostgreSQL, a compact stub left behind.',
    ),
    promoted: counter(
      registry,
      'notify_schedule_promoted_total',
      'Parked notifications brought back to Redis (scheduled, in the due index) ahead of their sendAt.',
    ),
    released: counter(registry, 'notify_schedule_released_total', 'Scheduled notifications released to their lanes when due, by priority.', ['priority']),
    lateness: histogram(
      registry,
      'notify_schedule_release_lateness_seconds',
      'How long after its sendAt a scheduled notification was released (Redis clock), by priority; never negative.',
      ['priority'],
      RELEASE_LATENESS_BUCKETS,
    ),
  };
}

export type ScheduleMetrics = ReturnType<typeof createScheduleMetrics>;
