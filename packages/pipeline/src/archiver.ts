import type { Logger } from 'pino';
import { archiveQueueKey, notificationKey } from '@notify/core';
import type { HistoryRecord, HistoryStore } from '@notify/history';
import type { HistoryMetrics } from '@notify/metrics';
import type { RedisClient } from '@notify/runtime';
import { toHistoryRecord, type RecordFields } from './notification-record';
import type { Scripts } from './scripts';

export interface ArchiverConfig {
  /** Ids claimed, read, inserted and compacted together (one transaction, one script call each). */
  batchSize: number;
  /** Pause between passes when the queue is drained. */
  intervalMs: number;
  /** A claimed batch is this archiver's for this long; a crashed archiver's batch is due again after it. */
  leaseMs: number;
  /** How long the compact idempotency entries answer duplicates (at least 24 h). */
  idempotencyWindowSeconds: number;
  /** Longest pause between passes while the history store keeps failing (the back-off doubles up to it). */
  maxBackoffMs: number;
  /**
   * Batches one archiver keeps in flight while draining: one is claimed and read from Redis while
   * another is written to PostgreSQL (each batch has its own lease; a failure gives back only its own).
   */
  concurrency: number;
}

export const DEFAULT_ARCHIVER_CONFIG: ArchiverConfig = {
  batchSize: 1_000,
  intervalMs: 1_000,
  leaseMs: 30_000,
  idempotencyWindowSeconds: 7 * 86_400,
  maxBackoffMs: 30_000,
  concurrency: 2,
};

export interface ArchiverDeps {
  redis: RedisClient;
  scripts: Pick<Scripts, 'claimArchive' | 'compactArchived' | 'releaseArchive'>;
  store: Pick<HistoryStore, 'insertBatch'>;
  logger: Logger;
  config: ArchiverConfig;
  metrics?: HistoryMetrics;
  /** The partition whose archive queue this archiver empties (default 0; one archiver per partition, with `loadArchiveScripts(redis, partition)`). */
  partition?: number;
}

export interface BatchResult {
  claimed: number;
  /** Written to the history store and compacted in Redis. */
  archived: number;
  /** Records that were gone (expired while waiting) or not archivable: only taken off the queue. */
  dropped: number;
}

const HISTORY_ID = /^[0-9a-f]{32}$/;

/**
 * Moves terminal notifications from Redis to the history store. One batch: claim ids from the
 * archive queue with a lease (claim-archive), read their records in one pipeline, insert them
 * in one transaction (insertBatch is idempotent), and only after the commit replace each record
 * by its compact idempotency entry (compact-archived). A failed insert gives the batch back
 * (release-archive); a crash anywhere before the compact leaves the ids on the queue, and after
 * the lease another pass repeats the idempotent insert.
 * While the store fails, the terminal records wait in Redis (their status is still served) and
 * the passes back off; several archivers (one per worker) share the queue.
 */
export class Archiver {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private failures = 0;

  constructor(private readonly deps: ArchiverDeps) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Ids waiting on the archive queue (claimed ones included): `notify_history_backlog`. */
  backlog(): Promise<number> {
    return this.deps.redis.zcard(archiveQueueKey(this.deps.partition));
  }

  /**
   * Batches until one comes back short of the batch size (at most `maxBatches`); the totals.
   * `concurrency` batches are in flight at once (a lane each); the first failure is thrown once
   * every lane has stopped (each lane gave its own failed batch back).
   */
  async drain(maxBatches = 1_000): Promise<BatchResult> {
    const total: BatchResult = { claimed: 0, archived: 0, dropped: 0 };
    let started = 0;
    let done = false;
    const lane = async () => {
      while (!done && started < maxBatches) {
        started += 1;
        let batch: BatchResult;
        try {
          batch = await this.archiveBatch();
        } catch (error) {
          done = true;
          throw error;
        }
        total.claimed += batch.claimed;
        total.archived += batch.archived;
        total.dropped += batch.dropped;
        if (batch.claimed < this.deps.config.batchSize) done = true;
      }
    };
    const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, this.deps.config.concurrency) }, lane));
    const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
    if (failed) throw failed.reason;
    return total;
  }

  /** One batch: claim, read, insert (one transaction), then compact. Throws when the store or Redis fails. */
  async archiveBatch(): Promise<BatchResult> {
    const { redis, scripts, store, config } = this.deps;
    const { ids } = await scripts.claimArchive({ batchSize: config.batchSize, leaseMs: config.leaseMs });
    if (ids.length === 0) return { claimed: 0, archived: 0, dropped: 0 };
    // One HGETALL each, pipelined (measured 3x cheaper for Redis than HGETALL inside the claim script).
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hgetall(notificationKey(id, this.deps.partition));
    const rows = (await pipeline.exec()) ?? [];
    const records: HistoryRecord[] = [];
    for (const [index, id] of ids.entries()) {
      const [error, value] = rows[index] ?? [];
      if (error) throw error;
      const fields = value as RecordFields;
      // Gone (expired while the store was down) or not a notification id: nothing to archive.
      if (!fields.id || !HISTORY_ID.test(id)) continue;
      records.push(toHistoryRecord(fields));
    }
    try {
      await store.insertBatch(records);
    } catch (error) {
      // The store did not take the batch: give it back so the next pass retries it at once
      // (a crash here instead leaves it to the lease). Best effort: the lease covers a failure.
      await scripts.releaseArchive({ ids }).catch(() => undefined);
      throw error;
    }
    const compacted = await scripts.compactArchived({ ids, idempotencyWindowSeconds: config.idempotencyWindowSeconds });
    this.deps.metrics?.archived.inc(compacted.written);
    if (records.length < ids.length) {
      this.deps.logger.warn({ missing: ids.length - records.length }, 'archive queue held ids without an archivable record (expired?); dropped');
    }
    return { claimed: ids.length, archived: compacted.written, dropped: ids.length - compacted.written };
  }

  private schedule(delayMs: number): void {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
      });
    }, delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    const { config, logger } = this.deps;
    try {
      await this.drain();
      if (this.failures > 0) logger.info({ after: this.failures }, 'archiving again: the history store answers');
      this.failures = 0;
      this.schedule(config.intervalMs);
    } catch (error) {
      this.failures += 1;
      this.deps.metrics?.archiveFailures.inc();
      const backoffMs = Math.min(config.maxBackoffMs, Math.max(100, config.intervalMs) * 2 ** Math.min(this.failures, 16));
      // The message only: a driver error may carry the connection string.
      logger.warn(
        { error: error instanceof Error ? error.message : String(error), failures: this.failures, retryInMs: backoffMs },
        'archive batch failed; terminal records wait in Redis; retrying',
      );
      this.schedule(backoffMs);
    }
  }
}
