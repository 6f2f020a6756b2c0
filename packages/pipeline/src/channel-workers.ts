import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { CHANNELS, PRIORITIES, channelQueueName, queuePrefix, type Channel } from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import type { BulkheadConfig, WorkerLockConfig } from './bulkhead-config';
import { stepsOf, type LaneJobData, type StepJobData } from './job-data';
import { runLaneJob, type LaneJobResult } from './lane-job-runner';
import { LaneSemaphore } from './lane-semaphore';
import type { Scripts } from './scripts';
import type { StepProcessor } from './step-processor';

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
  /** Runs steps; on a rate-limited lane (BullMQ's limiter counts jobs) it splits a batch into single step jobs instead. */
  processor: Pick<StepProcessor, 'process' | 'splitBatch'>;
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
  private readonly workers: Worker<LaneJobData, LaneJobResult>[] = [];

  constructor(private readonly options: ChannelWorkersOptions) {
    const { bulkheads, locks } = options;
    const partitions = options.partitions ?? [0];
    const partitionCount = options.partitionCount ?? 1;
    // One semaphore per lane for this process, over all its partitions: a batch job runs its
    // items at once, so BullMQ's per-worker concurrency alone no longer bounds the calls in flight.
    const semaphores = new Map<string, LaneSemaphore>();
    for (const channel of options.channels) {
      for (const priority of PRIORITIES) semaphores.set(`${channel}/${priority}`, new LaneSemaphore(Math.max(1, bulkheads[channel][priority].concurrency)));
    }
    for (const partition of partitions) {
      for (const channel of options.channels.filter((c) => CHANNELS.includes(c))) {
        for (const priority of PRIORITIES) {
          const lane = bulkheads[channel][priority];
          const rate = Math.ceil(lane.ratePerSecond / partitionCount);
          const semaphore = semaphores.get(`${channel}/${priority}`) as LaneSemaphore;
          const runner = {
            process: (data: StepJobData, run: { jobId?: string; leaseMs?: number }) => options.processor.process(data, run),
            semaphore,
            leaseMs: Math.floor(locks.lockDurationMs / 2),
            ...(rate > 0 ? { split: (steps: StepJobData[]) => options.processor.splitBatch(steps) } : {}),
          };
          const worker = new Worker<LaneJobData, LaneJobResult>(channelQueueName(channel, priority), (job) => runLaneJob(job, runner), {
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
  private async onFailed(job: Job<LaneJobData, LaneJobResult> | undefined, error: Error): Promise<void> {
    if (!job) return;
    const exhausted = job.attemptsMade >= (job.opts.attempts ?? 1);
    const steps = stepsOf(job.data);
    this.options.logger.warn(
      { err: error, notificationId: steps[0]?.id, step: steps[0]?.step, ...(steps.length > 1 ? { steps: steps.length } : {}), exhausted },
      'step job failed',
    );
    if (!exhausted) return;
    // A batch: each item ends as a single job would (the record refuses those that moved on or ended).
    await Promise.all(steps.map((step) => this.endFailed(step, error)));
  }

  private async endFailed(step: StepJobData, error: Error): Promise<void> {
    try {
      const ended = await this.options.scripts.finishNotification({
        id: step.id,
        fromStep: step.step,
        status: 'failed',
        reason: `processing error: ${error.message.slice(0, 200)}`,
        now: Date.now(),
      });
      if (ended.code === 'ended') this.options.metrics.notifications.inc({ priority: step.priority, outcome: 'failed' });
    } catch (finishError) {
      this.options.logger.error({ err: finishError, notificationId: step.id }, 'could not mark notification failed');
    }
  }
}
