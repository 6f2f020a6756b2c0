import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { CHANNELS, PRIORITIES, channelQueueName, queuePrefix, type Channel } from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import type { BulkheadConfig, WorkerLockConfig } from './bulkhead-config';
import type { StepJobData } from './job-data';
import type { Scripts } from './scripts';
import type { StepProcessor, StepResult } from './step-processor';

export interface ChannelWorkersOptions {
  connection: ConnectionOptions;
  channels: readonly Channel[];
  /**
   * The partitions this process consumes (default [0], the only one of PARTITIONS=1): one
   * BullMQ worker per (lane, partition).
   */
  partitions?: readonly number[];
  /** PARTITIONS (default 1): a lane's rate limit is shared out over its partitions' queues. */
  partitionCount?: number;
  bulkheads: BulkheadConfig;
  locks: WorkerLockConfig;
  processor: StepProcessor;
  scripts: Scripts;
  metrics: PipelineMetrics;
  logger: Logger;
}

/**
 * The channel bulkheads: for each channel, one BullMQ worker per priority lane with its own
 * concurrency and rate limit. Urgent work never waits behind reminder work: it has its own
 * queue and its own slots. A slow channel fills only its own slots and its own sockets.
 * With partitions, each lane has one queue per partition: this process runs a worker on each
 * of its partitions' queues, the lane's concurrency shared out over them (each gets
 * ⌈concurrency / its partitions⌉) and its rate limit over all PARTITIONS queues (BullMQ's
 * limiter counts per queue, for every process: each queue gets ⌈rate / PARTITIONS⌉).
 */
export class ChannelWorkers {
  private readonly workers: Worker<StepJobData, StepResult>[] = [];

  constructor(private readonly options: ChannelWorkersOptions) {
    const { bulkheads, locks } = options;
    const partitions = options.partitions ?? [0];
    const partitionCount = options.partitionCount ?? 1;
    for (const partition of partitions) {
      for (const channel of options.channels.filter((c) => CHANNELS.includes(c))) {
        for (const priority of PRIORITIES) {
          const lane = bulkheads[channel][priority];
          const rate = Math.ceil(lane.ratePerSecond / partitionCount);
          const worker = new Worker<StepJobData, StepResult>(channelQueueName(channel, priority), (job) => options.processor.process(job.data), {
            connection: options.connection,
            prefix: queuePrefix(partition),
            concurrency: Math.ceil(lane.concurrency / Math.max(1, partitions.length)),
            lockDuration: locks.lockDurationMs,
            stalledInterval: locks.stalledIntervalMs,
            maxStalledCount: locks.maxStalledCount,
            ...(rate > 0 ? { limiter: { max: rate, duration: 1_000 } } : {}),
            autorun: false,
          });
          worker.on('failed', (job, error) => void this.onFailed(job, error));
          worker.on('error', (error) => options.logger.error({ err: error, queue: worker.name, partition }, 'worker error'));
          this.workers.push(worker);
        }
      }
    }
  }

  start(): void {
    for (const worker of this.workers) void worker.run().catch((error: unknown) => this.options.logger.error({ err: error }, 'worker stopped'));
  }

  async waitUntilReady(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  /** Graceful stop: take no new jobs, finish the ones in flight, then close connections. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }

  /**
   * BullMQ gave up on a job (it threw on every retry, e.g. Redis kept failing): end the
   * notification as failed at that step, so nothing stays "in progress" forever. The record
   * refuses if the notification already moved on or was delivered.
   */
  private async onFailed(job: Job<StepJobData, StepResult> | undefined, error: Error): Promise<void> {
    if (!job) return;
    const exhausted = job.attemptsMade >= (job.opts.attempts ?? 1);
    this.options.logger.warn({ err: error, notificationId: job.data.id, step: job.data.step, exhausted }, 'step job failed');
    if (!exhausted) return;
    try {
      const ended = await this.options.scripts.finishNotification({
        id: job.data.id,
        fromStep: job.data.step,
        status: 'failed',
        reason: `processing error: ${error.message.slice(0, 200)}`,
        now: Date.now(),
      });
      if (ended.code === 'ended') this.options.metrics.notifications.inc({ priority: job.data.priority, outcome: 'failed' });
    } catch (finishError) {
      this.options.logger.error({ err: finishError, notificationId: job.data.id }, 'could not mark notification failed');
    }
  }
}
