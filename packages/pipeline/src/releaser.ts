import type { Logger } from 'pino';
import { dueIndexKey } from '@notify/core';
import type { ScheduleMetrics } from '@notify/metrics';
import type { RedisClient } from '@notify/runtime';
import type { ChannelQueues } from './channel-queues';
import { PeriodicPass, batchesUntilShort } from './periodic-pass';
import type { ReleaseDueReply } from './scripts';

export interface ReleaserConfig {
  /** How often to look for due notifications (0 turns the releaser off). */
  intervalMs: number;
  /** Due notifications per script call. */
  batch: number;
}

/** Batches per pass at most: a pass never runs away; the next tick goes on. */
const MAX_BATCHES_PER_PASS = 100;

/**
 * Moves one partition's due scheduled notifications to their lanes (docs/scheduling.md). Each
 * batch is one script call (release-due-3: due by Redis's clock, status 'accepted', into the
 * pending-intake set, out of the due index, atomically) and then the first steps' jobs, added
 * the way batch intake adds them (one batch job per lane chunk). A process killed between the
 * two leaves accepted records in the pending set: the intake sweeper adds their jobs. Every
 * worker may run one per partition: two releasers never take the same entry (the script
 * removes what it takes), and a first step added twice is one step.
 */
export class Releaser {
  private readonly loop: PeriodicPass<number>;

  constructor(
    private readonly deps: {
      redis: RedisClient;
      queues: ChannelQueues;
      release: (batch: number) => Promise<ReleaseDueReply>;
      logger: Logger;
      config: ReleaserConfig;
      metrics?: ScheduleMetrics;
      partition: number;
    },
  ) {
    this.loop = new PeriodicPass({
      intervalMs: deps.config.intervalMs,
      pass: () => batchesUntilShort(MAX_BATCHES_PER_PASS, deps.config.batch, () => this.releaseBatch()),
      logger: deps.logger,
      failure: 'release of due notifications failed; will try again',
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass: batch after batch until none is full; returns how many were released. */
  releaseDue(): Promise<number> {
    return this.loop.run();
  }

  /** Entries waiting in this partition's due index. */
  waiting(): Promise<number> {
    return this.deps.redis.zcard(dueIndexKey(this.deps.partition));
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One script call and the first steps of what it released; `read`: index entries it took. */
  private async releaseBatch(): Promise<{ read: number; done: number }> {
    const { config, queues, metrics } = this.deps;
    const reply = await this.deps.release(config.batch);
    if (reply.released.length > 0) {
      await queues.enqueueFirstSteps(
        reply.released.map((r) => ({ priority: r.priority, data: { id: r.id, rh: r.rh, priority: r.priority, step: 1, channel: r.channel, ...r.extras } })),
      );
      for (const r of reply.released) {
        metrics?.released.inc({ priority: r.priority });
        metrics?.lateness.observe({ priority: r.priority }, Math.max(0, reply.now - r.sendAt) / 1000);
      }
    }
    return { read: reply.handled, done: reply.released.length };
  }
}
