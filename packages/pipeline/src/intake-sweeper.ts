import type { Logger } from 'pino';
import { notificationKey, pendingIntakeKey, type Channel, type Priority } from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import type { ChannelQueues } from './channel-queues';

export interface IntakeSweeperConfig {
  /** How often to look (0 turns the sweeper off). */
  intervalMs: number;
  /** Entries younger than this are left alone: their intake is probably still running. */
  minAgeMs: number;
  /** Entries handled per sweep at most. */
  batch: number;
}

/**
 * Closes the one gap intake leaves: the record (with the idempotency key) is written before
 * the first job is added, and a process that dies in between leaves a record nobody works on
 * if the client does not retry. The intake script lists every new notification in a sorted
 * set; the first step clears it. This sweeper re-adds step 1 for entries older than
 * `minAgeMs` whose record is still `accepted` (the job id is derived from the notification, so
 * re-adding an existing job is a no-op) and drops entries that moved on or expired. Every
 * worker may run one: all they do is idempotent. One sweeper per partition (`partition`,
 * default 0): the pending set and the records it reads share the partition's slot, so its
 * pipeline stays on one node of a cluster.
 */
export class IntakeSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deps: { redis: RedisClient; queues: ChannelQueues; logger: Logger; config: IntakeSweeperConfig; now?: () => number; partition?: number },
  ) {}

  start(): void {
    if (this.deps.config.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(
      () =>
        void this.sweep().catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, 'intake sweep failed; will try again');
        }),
      this.deps.config.intervalMs,
    );
    this.timer.unref();
  }

  /** One pass; returns how many first steps were (re-)enqueued. */
  sweep(): Promise<number> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<number> {
    const { redis, queues, config } = this.deps;
    const partition = this.deps.partition ?? 0;
    const cutoff = (this.deps.now ?? Date.now)() - config.minAgeMs;
    const ids = await redis.zrangebyscore(pendingIntakeKey(partition), '-inf', cutoff, 'LIMIT', 0, config.batch);
    if (ids.length === 0) return 0;
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hmget(notificationKey(id, partition), 'status', 'chan', 'priority', 'rh');
    const rows = (await pipeline.exec()) ?? [];
    let enqueued = 0;
    for (const [index, id] of ids.entries()) {
      const [error, fields] = rows[index] ?? [];
      if (error) throw error;
      const [status, channel, priority, rh] = fields as (string | null)[];
      if (status !== 'accepted' || !channel || !priority || !rh) {
        await redis.zrem(pendingIntakeKey(partition), id);
        continue;
      }
      await queues.enqueueStep(priority as Priority, { id, rh, priority: priority as Priority, step: 1, channel: channel as Channel });
      enqueued += 1;
    }
    if (enqueued > 0) this.deps.logger.info({ enqueued, partition }, 'intake sweeper re-added first steps of accepted notifications');
    return enqueued;
  }
}
