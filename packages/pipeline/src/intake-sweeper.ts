import type { Logger } from 'pino';
import { isTerminal, notificationKey, pendingIntakeKey, pendingUrgentKey, type Channel, type NotificationStatus, type Priority } from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import type { ChannelQueues } from './channel-queues';
import type { StepJobData } from './job-data';
import { recordAttempts } from './notification-record';
import { PeriodicPass, batchesUntilShort } from './periodic-pass';
import { JOB_EXTRA_FIELDS, jobExtrasFrom } from './step-job-extras';

export interface IntakeSweeperConfig {
  /** How often to look (0 turns the sweeper off). */
  intervalMs: number;
  /** Entries that made no progress for less than this are left alone: their step is probably still running or waiting. */
  minAgeMs: number;
  /** Entries handled per sweep at most. */
  batch: number;
}

/** Batches per pass at most (a set that keeps growing past this is a backlog the log shows, not a loop). */
const MAX_BATCHES_PER_PASS = 50;

/** The record fields the sweeper reads per entry, in this order. */
const FIELDS = ['status', 'step', 'chan', 'kind', 'priority', 'rh', ...JOB_EXTRA_FIELDS] as const;

/**
 * Re-creates a step job that went missing. Two gaps leave a record that no job works on:
 * - intake: the record (with the idempotency key) is written before the first job is added,
 *   and a process that dies in between leaves a record nobody works on if the client does not
 *   retry;
 * - a failover (Redis Cluster): replication is asynchronous, so the last writes a master
 *   acknowledged can vanish with it. A step's writes are several (record, next job, the job's
 *   completion); the promoted replica may hold the record at step N while the job of step N
 *   (or N+1) is gone (docs/cluster.md, Failover).
 * So the intake script lists every new notification in a per-partition sorted set (id -> when
 * it last made progress), each step beginning refreshes its entry, and a terminal record
 * leaves it. This sweeper looks at entries idle for `minAgeMs`: a terminal or expired record
 * is dropped; any other gets its current step's job added again (the job id is derived from
 * (notification, step), so re-adding a job that exists is a no-op; a job that vanished runs,
 * and the record decides: a step that ended is resumed, a call that was in flight is
 * reconciled with the same provider idempotency key, never sent as a second delivery), and
 * its entry is refreshed. Every worker may run one: all it does is idempotent. One sweeper per
 * partition (`partition`, default 0): the set and the records share the partition's slot, so
 * its pipelines stay on one node of a cluster.
 */
export class IntakeSweeper {
  private readonly loop: PeriodicPass<number>;

  constructor(
    private readonly deps: { redis: RedisClient; queues: ChannelQueues; logger: Logger; config: IntakeSweeperConfig; now?: () => number; partition?: number },
  ) {
    // Batch after batch until none is full (bounded: a pass never runs away), so finished entries never pile up.
    this.loop = new PeriodicPass({
      intervalMs: deps.config.intervalMs,
      pass: async () => {
        const reAdded = await batchesUntilShort(MAX_BATCHES_PER_PASS, deps.config.batch, async () => {
          const { handled, reAdded } = await this.batch();
          return { read: handled, done: reAdded };
        });
        await this.urgentBatch();
        return reAdded;
      },
      logger: deps.logger,
      failure: 'intake sweep failed; will try again',
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass; returns how many step jobs were (re-)enqueued. */
  sweep(): Promise<number> {
    return this.loop.run();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async batch(): Promise<{ handled: number; reAdded: number }> {
    const { redis, config } = this.deps;
    const partition = this.deps.partition ?? 0;
    const pending = pendingIntakeKey(partition);
    const now = (this.deps.now ?? Date.now)();
    const ids = await redis.zrangebyscore(pending, '-inf', now - config.minAgeMs, 'LIMIT', 0, config.batch);
    if (ids.length === 0) return { handled: 0, reAdded: 0 };
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hmget(notificationKey(id, partition), ...FIELDS);
    const rows = (await pipeline.exec()) ?? [];
    const done: string[] = [];
    const open: string[] = [];
    let enqueued = 0;
    let resumed = 0;
    for (const [index, id] of ids.entries()) {
      const [error, fields] = rows[index] ?? [];
      if (error) throw error;
      const [status, step, chan, kind, priority, rh, ...extras] = fields as (string | null)[];
      if (!status || isTerminal(status as NotificationStatus) || !chan || !priority || !rh) {
        done.push(id);
        continue;
      }
      const job: StepJobData = {
        id,
        rh,
        priority: priority as Priority,
        step: Number(step ?? 1),
        channel: chan as Channel,
        ...jobExtrasFrom(extras),
      };
      // A reconciliation goes back to the provider that made the unknown call: only it holds the key.
      if (kind === 'reconcile') {
        const provider = recordAttempts(await redis.hgetall(notificationKey(id, partition)))
          .filter((a) => a.channel === chan && a.outcome === 'unknown')
          .at(-1)?.provider;
        if (provider !== undefined) job.provider = provider;
      }
      await this.deps.queues.enqueueStep(job.priority, job);
      open.push(id);
      if (status === 'accepted') enqueued += 1;
      else resumed += 1;
    }
    // Terminal: out of the set (and the urgent one, had it ended before a worker took it up). Still open: checked again after another `minAgeMs` without progress.
    if (done.length > 0) await Promise.all([redis.zrem(pending, ...done), redis.zrem(pendingUrgentKey(partition), ...done)]);
    if (open.length > 0) await redis.zadd(pending, 'XX', ...open.flatMap((id) => [now, id]));
    if (open.length > 0) this.deps.logger.info({ enqueued, resumed, partition }, 'intake sweeper re-added the current step jobs of idle notifications');
    return { handled: ids.length, reAdded: open.length };
  }

  /**
   * Drops the oldest urgent-backlog entries whose notification no longer waits for a lane: a
   * removal lost with a failed-over master or a Redis blip as a worker took the step up. Only a
   * record still 'accepted' at step 1 is waiting; any other (moved on, ended, gone) leaves.
   */
  private async urgentBatch(): Promise<void> {
    const { redis, config } = this.deps;
    const partition = this.deps.partition ?? 0;
    const key = pendingUrgentKey(partition);
    const ids = await redis.zrangebyscore(key, '-inf', (this.deps.now ?? Date.now)() - config.minAgeMs, 'LIMIT', 0, config.batch);
    if (ids.length === 0) return;
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hmget(notificationKey(id, partition), 'status', 'step');
    const rows = (await pipeline.exec()) ?? [];
    const gone = ids.filter((_id, index) => {
      const [error, fields] = rows[index] ?? [];
      if (error) throw error;
      const [status, step] = fields as (string | null)[];
      return status !== 'accepted' || Number(step ?? 1) !== 1;
    });
    if (gone.length > 0) await redis.zrem(key, ...gone);
  }
}
