import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { CHANNELS, PRIORITIES, allPartitions, channelQueueName, partitionOfId, queuePrefix, stepJobId, type Channel, type Priority } from '@notify/core';
import type { StepJobData } from './job-data';

/**
 * BullMQ job options for every step job. The processor is idempotent (the record decides), so
 * BullMQ may retry a job that threw (a Redis blip) many times; a permanently failed job is
 * still reconciled by the worker's failure handler so the notification ends terminal.
 * A completed job is removed at once: the notification record holds every step's history,
 * and keeping completed jobs (age/count trimming) was the dearest part of BullMQ's
 * moveToFinished (issue 11). Failed jobs stay a week for bull-board. Exactly-once never
 * rested on job ids: a step job added again after its twin was removed finds the record moved
 * on (begin-attempt answers stale).
 */
export const STEP_JOB_OPTIONS: JobsOptions = {
  attempts: 20,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3_600 },
};

/**
 * BullMQ's events stream per lane, trimmed (approximately) to this many entries instead of
 * 10,000: nothing of ours reads it beyond a live QueueEvents listener (tests, bull-board).
 */
export const STEP_EVENTS_MAX_LEN = 1_000;

/**
 * The six channel lanes of every partition: one queue per (channel, priority class, partition),
 * partition p's under BullMQ prefix `queuePrefix(p)` (its hash tag: a queue's keys share the
 * slot of its notifications' records). A step job goes to its notification's partition.
 */
export class ChannelQueues {
  private readonly queues = new Map<string, Queue<StepJobData>>();
  readonly partitions: number;

  /** `partitions`: PARTITIONS (default 1, the six queues under `{notify}:q`). */
  constructor(connection: ConnectionOptions, partitions = 1) {
    this.partitions = partitions;
    for (const partition of allPartitions(partitions)) {
      for (const channel of CHANNELS) {
        for (const priority of PRIORITIES) {
          const name = channelQueueName(channel, priority);
          this.queues.set(
            laneKey(name, partition),
            new Queue<StepJobData>(name, {
              connection,
              prefix: queuePrefix(partition),
              defaultJobOptions: STEP_JOB_OPTIONS,
              streams: { events: { maxLen: STEP_EVENTS_MAX_LEN } },
            }),
          );
        }
      }
    }
  }

  get(channel: Channel, priority: Priority, partition = 0): Queue<StepJobData> {
    return this.queues.get(laneKey(channelQueueName(channel, priority), partition)) as Queue<StepJobData>;
  }

  /** The queue a notification's step jobs go to (its id names its partition). */
  forNotification(id: string, channel: Channel, priority: Priority): Queue<StepJobData> {
    return this.get(channel, priority, partitionOfId(id, this.partitions));
  }

  /** Every lane of every partition, partition by partition. */
  all(): Queue<StepJobData>[] {
    return [...this.queues.values()];
  }

  /** What the queue-depth gauge reads: each lane of the given partitions (default all), with its partition. */
  depthSources(
    partitions: readonly number[] = allPartitions(this.partitions),
  ): { name: string; partition: number; getJobCounts(...states: string[]): Promise<Record<string, number>> }[] {
    return partitions.flatMap((partition) =>
      CHANNELS.flatMap((c) =>
        PRIORITIES.map((priority) => {
          const queue = this.get(c, priority, partition);
          return { name: queue.name, partition, getJobCounts: (...states: string[]) => queue.getJobCounts(...(states as Parameters<Queue['getJobCounts']>)) };
        }),
      ),
    );
  }

  /** The six lanes of each of the given partitions. */
  ofPartitions(partitions: readonly number[]): Queue<StepJobData>[] {
    return partitions.flatMap((p) => CHANNELS.flatMap((c) => PRIORITIES.map((priority) => this.get(c, priority, p))));
  }

  /**
   * Adds the job for one step. The job id is derived from (notification, step), so adding it
   * twice (a client retry, a re-run after a crash) is a no-op while the job exists.
   */
  async enqueueStep(priority: Priority, data: StepJobData, delayMs = 0): Promise<void> {
    await this.forNotification(data.id, data.channel, priority).add('step', data, {
      jobId: stepJobId(data.id, data.step),
      ...(delayMs > 0 ? { delay: delayMs } : {}),
    });
  }

  /** Batch form of `enqueueStep` (one round trip per lane), used by batch intake. */
  async enqueueFirstSteps(items: { priority: Priority; data: StepJobData }[]): Promise<void> {
    const byQueue = new Map<Queue<StepJobData>, { name: string; data: StepJobData; opts: JobsOptions }[]>();
    for (const { priority, data } of items) {
      const queue = this.forNotification(data.id, data.channel, priority);
      const list = byQueue.get(queue) ?? [];
      list.push({ name: 'step', data, opts: { jobId: stepJobId(data.id, data.step) } });
      byQueue.set(queue, list);
    }
    await Promise.all([...byQueue].map(([queue, jobs]) => queue.addBulk(jobs)));
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((q) => q.close()));
  }
}

function laneKey(name: string, partition: number): string {
  return `${partition}/${name}`;
}
