import type { Registry } from 'prom-client';
import { counter } from './metric-factories';
import { scrapedGauge } from './scraped-gauge';

/**
 * The archiver's metrics (terminal records moving from Redis to the history store).
 * `backlog` is read at scrape time: the ids waiting on the archive queue.
 */
export function createHistoryMetrics(registry: Registry, backlog: () => Promise<number>) {
  return {
    backlog: scrapedGauge(
      registry,
      'notify_history_backlog',
      'Terminal notifications waiting in Redis to be archived to the history store (a growing value: the store is down or too slow).',
      backlog,
    ),
    archived: counter(registry, 'notify_history_archived_total', 'Terminal notifications written to the history store and compacted in Redis.'),
    archiveFailures: counter(
      registry,
      'notify_history_archive_failures_total',
      'Archive batches that failed (history store unreachable or refused); the batch is retried after a back-off.',
    ),
  };
}

export type HistoryMetrics = ReturnType<typeof createHistoryMetrics>;
