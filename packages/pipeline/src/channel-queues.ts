import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { CHANNELS, PRIORITIES, allPartitions, channelQueueName, partitionOfId, queuePrefix, stepJobId, type Channel, type Priority } from '@notify/core';
import { DEFAULT_LATER_STEP_BATCH, DEFAULT_STEP_BATCH, StepBatcher, type StepBatchConfig } from './step-batcher';
import { STEP_BATCH_JOB_NAME, STEP_JOB_NAME, isStepBatch, type LaneJobData, type StepJobData } from './job-data';
import type { LaneFairShare } from './fair-share/lane-fair-share';

/**
 * LANE_FAIR_SHARE on: every job added is tagged (fair-share/lane-tags.ts) and batches hold one
 * tenant's steps. `weightOf`: the tenants' weights (the api, from TENANTS_FILE); without it
 * (the worker) a job's own `weight`, else the one last given for its tenant in the lane.
 */
export interface ChannelQueuesFairShare {
  tags: LaneFairShare;
  weightOf?: (tenant: string) => number;
}

/**
 * BullMQ job options for every step job. The processor is idempotent (the record decides), so
 * BullMQ may retry a job that threw (a Redis blip) many times; a permanently failed job is
 * still reconciled by the worker's failure handler so the notification ends terminal.
 * A completed job is removed at once: the notification record holds every step's history,
 * and keeping completed jobs (age/count trimming) was the dearest part of BullMQ's
 * moveToFinished (docs/benchmarks-pipeline.md). Failed jobs stay a week for bull-board. Exactly-once never
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
  private readonly queues = new Map<string, Queue<LaneJobData>>();
  readonly partitions: number;
  /** INTAKE_BATCH_MAX / INTAKE_BATCH_WINDOW_MS: how intake groups first steps into batch jobs. */
  readonly batch: StepBatchConfig;
  private readonly batcher: StepBatcher;
  /** The worker's: the cascade's later steps of one lane and delay share batch jobs (CASCADE_BATCH_WINDOW_MS). */
  private readonly laterBatcher: StepBatcher;

  /**
   * `partitions`: PARTITIONS (default 1, the six queues under `{notify}:q`); `batch`: first
   * steps (intake); `later`: the cascade's later steps (worker).
   */
  constructor(
    connection: ConnectionOptions,
    partitions = 1,
    batch: StepBatchConfig = DEFAULT_STEP_BATCH,
    later: StepBatchConfig = DEFAULT_LATER_STEP_BATCH,
    readonly fair?: ChannelQueuesFairShare,
  ) {
    this.partitions = partitions;
    this.batch = batch;
    // With fair share a batch is one tenant's: its one start tag is every item's.
    const laneOf = (data: StepJobData) =>
      laneKey(channelQueueName(data.channel, data.priority), partitionOfId(data.id, this.partitions)) + (fair ? `/${data.tenant ?? ''}` : '');
    this.batcher = new StepBatcher(batch, (items) => this.addSteps(items, 0), laneOf);
    this.laterBatcher = new StepBatcher(later, (items, delayMs) => this.addSteps(items, delayMs), laneOf);
    for (const partition of allPartitions(partitions)) {
      for (const channel of CHANNELS) {
        for (const priority of PRIORITIES) {
          const name = channelQueueName(channel, priority);
          this.queues.set(
            laneKey(name, partition),
            new Queue<LaneJobData>(name, {
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

  /** Where the queues' errors go: BullMQ prints an error no listener takes to the console, past the logger and its redaction. */
  onError(listener: (error: Error, queue: string) => void): void {
    for (const queue of this.queues.values()) queue.on('error', (error) => listener(error, queue.name));
  }

  get(channel: Channel, priority: Priority, partition = 0): Queue<LaneJobData> {
    return this.queues.get(laneKey(channelQueueName(channel, priority), partition)) as Queue<LaneJobData>;
  }

  /** The queue a notification's step jobs go to (its id names its partition). */
  forNotification(id: string, channel: Channel, priority: Priority): Queue<LaneJobData> {
    return this.get(channel, priority, partitionOfId(id, this.partitions));
  }

  /** Every lane of every partition, partition by partition. */
  all(): Queue<LaneJobData>[] {
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
  ofPartitions(partitions: readonly number[]): Queue<LaneJobData>[] {
    return partitions.flatMap((p) => CHANNELS.flatMap((c) => PRIORITIES.map((priority) => this.get(c, priority, p))));
  }

  /**
   * Adds the job for one step. The job id is derived from (notification, step), so adding it
   * twice (a client retry, a re-run after a crash) is a no-op while the job exists. Every
   * step but a freshly accepted notification's first goes this way (cascade steps, delayed
   * retries, the intake sweeper's and a duplicate POST's re-adds).
   */
  async enqueueStep(priority: Priority, data: StepJobData, delayMs = 0): Promise<void> {
    await this.addJob(this.forNotification(data.id, data.channel, priority), STEP_JOB_NAME, data, {
      jobId: stepJobId(data.id, data.step),
      ...(delayMs > 0 ? { delay: delayMs } : {}),
    });
  }

  /**
   * A freshly accepted notification's first step (single POST): through the micro-batcher, so
   * first steps of one lane arriving within INTAKE_BATCH_WINDOW_MS share one batch job. Resolves
   * once the job holding it exists; rejects if that add failed.
   */
  async enqueueFirstStep(priority: Priority, data: StepJobData): Promise<void> {
    await this.batcher.add(data.priority === priority ? data : { ...data, priority });
  }

  /**
   * Batch intake's first steps: per lane, chunks of at most INTAKE_BATCH_MAX items, each chunk
   * one job (a `steps` batch job, or a `step` job with its derived id when it holds one item:
   * INTAKE_BATCH_MAX=1 is exactly the one-job-per-notification form).
   * `again`: a duplicate's re-add (the record is still 'accepted'): a step job with its derived
   * id, so a client retrying many times adds nothing while that job exists.
   */
  async enqueueFirstSteps(items: { priority: Priority; data: StepJobData; again?: boolean }[]): Promise<void> {
    // By lane, and with fair share by (lane, tenant): a batch job never mixes tenants.
    const byLane = new Map<string, { queue: Queue<LaneJobData>; fresh: StepJobData[]; again: StepJobData[] }>();
    for (const { priority, data, again } of items) {
      const partition = partitionOfId(data.id, this.partitions);
      const key = laneKey(channelQueueName(data.channel, priority), partition) + (this.fair ? `/${data.tenant ?? ''}` : '');
      const lists = byLane.get(key) ?? { queue: this.get(data.channel, priority, partition), fresh: [], again: [] };
      (again ? lists.again : lists.fresh).push(data.priority === priority ? data : { ...data, priority });
      byLane.set(key, lists);
    }
    const max = Math.max(1, this.batch.max);
    await Promise.all(
      [...byLane.values()].map(({ queue, fresh, again }) => {
        const jobs = again.map((step) => laneJob([step]));
        for (let i = 0; i < fresh.length; i += max) jobs.push(laneJob(fresh.slice(i, i + max)));
        // One add per job, not addBulk: ioredis builds every pipeline by copying each of the
        // client's defined scripts (BullMQ's and ours) onto it, which cost the api ~26 µs per
        // notification in batch intake; the write coalescer already sends a turn's adds in one write.
        return Promise.all(jobs.map((job) => this.addJob(queue, job.name, job.data, job.opts)));
      }),
    );
  }

  /**
   * A cascade's next step (the worker, after a step that did not deliver): through the later
   * steps' micro-batcher, so next steps of one lane and delay within CASCADE_BATCH_WINDOW_MS
   * share one (delayed) batch job instead of one BullMQ job each; each starts at most that window
   * after its own delay. Resolves once the job holding it exists.
   */
  async enqueueLaterStep(priority: Priority, data: StepJobData, delayMs = 0): Promise<void> {
    await this.laterBatcher.add(data.priority === priority ? data : { ...data, priority }, delayMs);
  }

  /** One lane's steps as one job, `delayMs` from now (a micro-batcher's add). */
  private async addSteps(steps: StepJobData[], delayMs: number): Promise<void> {
    const [first] = steps;
    if (!first) return;
    // One item: the plain step job with its derived id (what enqueueStep adds, and exactly today's job).
    if (steps.length === 1) return this.enqueueStep(first.priority, first, delayMs);
    const job = laneJob(steps);
    await this.addJob(this.forNotification(first.id, first.channel, first.priority), job.name, job.data, delayMs > 0 ? { delay: delayMs } : {});
  }

  /**
   * Adds one lane job; with fair share tagged first: its BullMQ priority from its start tag
   * (every job of a fair lane is prioritized, a delayed one promoted with it), the start tag in
   * its data for the worker that takes it, and a weight other than 1 in each step (later steps copy it).
   */
  private async addJob(queue: Queue<LaneJobData>, name: string, data: LaneJobData, opts: JobsOptions = {}): Promise<void> {
    if (!this.fair) {
      await queue.add(name, data, opts);
      return;
    }
    const steps = isStepBatch(data) ? data.steps : [data];
    const tenant = steps[0]?.tenant;
    const own = this.fair.weightOf && tenant !== undefined ? this.fair.weightOf(tenant) : undefined;
    const weight = own ?? steps[0]?.weight ?? 0;
    const { priority, start } = await this.fair.tags.tag(queue, tenant, steps.length, weight);
    const withWeight = (step: StepJobData): StepJobData => (own !== undefined && own !== 1 && step.weight !== own ? { ...step, weight: own } : step);
    const tagged: LaneJobData = isStepBatch(data) ? { steps: data.steps.map(withWeight), start } : { ...withWeight(data), start };
    await queue.add(name, tagged, { ...opts, priority });
  }

  /** Adds the steps still waiting in the micro-batchers, then closes the queues. */
  async close(): Promise<void> {
    await Promise.all([this.batcher.flushAll(), this.laterBatcher.flushAll()]);
    await Promise.all(this.all().map((q) => q.close()));
  }
}

/** The job for one lane's first steps: a batch job (auto id), or a step job with its derived id when there is one item. */
function laneJob(steps: StepJobData[]): { name: string; data: LaneJobData; opts?: JobsOptions } {
  const [only] = steps;
  if (steps.length === 1 && only) return { name: STEP_JOB_NAME, data: only, opts: { jobId: stepJobId(only.id, only.step) } };
  return { name: STEP_BATCH_JOB_NAME, data: { steps } };
}

function laneKey(name: string, partition: number): string {
  return `${partition}/${name}`;
}
