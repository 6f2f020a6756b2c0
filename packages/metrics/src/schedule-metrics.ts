import type { Registry } from 'prom-client';
import { counter, histogram } from './metric-factories';
import { scrapedGauge } from './scraped-gauge';

/** Release lateness: fine below the 1 s bound (docs/scheduling.md), then the sweeper's minute. */
export const RELEASE_LATENESS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * The releaser's metrics (scheduled notifications moving to their lanes when due). `waiting` is
 * read at scrape time: the entries of this process's partitions' due indexes.
 */
export function createScheduleMetrics(registry: Registry, waiting: () => Promise<number>) {
  return {
    scheduled: scrapedGauge(
      registry,
      'notify_scheduled_notifications',
      'Scheduled notifications not yet due (the due indexes of the partitions this worker releases).',
      waiting,
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
