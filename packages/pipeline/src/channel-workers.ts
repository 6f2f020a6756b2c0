import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import type { LoopDelaySampler } from '@notify/budget-chain';
import { CHANNELS, PRIORITIES, channelQueueName, queuePrefix, type Channel, type Priority } from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import type { BulkheadConfig, WorkerLockConfig } from './bulkhead-config';
import type { LaneFairShare } from './fair-share/lane-fair-share';
import type { LaneJobData, StepJobData } from './job-data';
import { onLaneJobFailed } from './lane-job-failures';
import { runLaneJob, type LaneJobResult } from './lane-job-runner';
import { LaneSemaphore } from './lane-semaphore';
import { DEFAULT_LANE_WATCHDOG, laneIsStuck, type LaneWatchdogConfig } from './lane-watchdog';
import { ReminderGovernor } from './reminder-governor';
import { DEFAULT_REMINDER_YIELD, type ReminderYieldConfig } from './reminder-yield';
import type { Scripts } from './scripts';
import type { StepProcessor } from './step-processor';
import { NO_COALESCING, type WriteCoalescer } from './write-coalescer';

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
  /** Runs steps; on a rate-limited lane (BullMQ's limiter counts jobs) it splits a batch into single step jobs instead; told what an urgent lane takes up. */
  processor: Pick<StepProcessor, 'process' | 'splitBatch' | 'takenUp'>;
  scripts: Scripts;
  metrics: PipelineMetrics;
  logger: Logger;
  /** Replaces a lane worker that stopped fetching (lane-watchdog.ts); default DEFAULT_LANE_WATCHDOG. */
  watchdog?: LaneWatchdogConfig;
  /**
   * Called as a lane job ends (BullMQ then writes its completion and fetches the next job on
   * `connection`): joins the socket writes of one event-loop turn (write-coalescer.ts). Default none.
   */
  coalesce?: WriteCoalescer;
  /** REMINDER_YIELD_*: the reminder lanes give way to urgent work in this process (reminder-yield.ts); default DEFAULT_REMINDER_YIELD. */
  reminderYield?: ReminderYieldConfig;
  /** The event loop's delay per window, for the reminder lanes' limit; default the process's own. */
  loopDelay?: LoopDelaySampler;
  /** LANE_FAIR_SHARE: each job taken moves its lane's virtual time to its start tag. */
  fairShare?: LaneFairShare;
}

/** One BullMQ worker's lane on one partition, and what the watchdog needs to judge it. */
interface Lane {
  name: string;
  partition: number;
  concurrency: number;
  create: () => Worker<LaneJobData, LaneJobResult>;
  worker: Worker<LaneJobData, LaneJobResult>;
  /** Reads the lane's runnable jobs (the shared connection; a Queue opens none of its own). */
  queue: Queue;
  inFlight: number;
  lastStartAt: number;
  replaced: number;
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
  private readonly lanes: Lane[] = [];
  /** Sets the reminder lanes' limits while urgent work is about. */
  readonly governor: ReminderGovernor;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private closing = false;

  constructor(private readonly options: ChannelWorkersOptions) {
    const { bulkheads, locks } = options;
    const partitions = options.partitions ?? [0];
    const partitionCount = options.partitionCount ?? 1;
    const coalesce = options.coalesce ?? NO_COALESCING;
    const fair = options.fairShare;
    // One semaphore per lane for this process, over all its partitions: a batch job runs its
    // items at once, so BullMQ's per-worker concurrency alone no longer bounds the calls in flight.
    const semaphores = new Map<string, LaneSemaphore>();
    for (const channel of options.channels) {
      for (const priority of PRIORITIES) semaphores.set(`${channel}/${priority}`, new LaneSemaphore(Math.max(1, bulkheads[channel][priority].concurrency)));
    }
    const semaphore = (channel: Channel, priority: Priority) => semaphores.get(`${channel}/${priority}`) as LaneSemaphore;
    this.governor = new ReminderGovernor({
      config: options.reminderYield ?? DEFAULT_REMINDER_YIELD,
      lanes: options.channels.map((channel) => ({ channel, urgent: semaphore(channel, 'urgent'), reminder: semaphore(channel, 'reminder') })),
      onLimit: (channel, limit) => options.metrics.reminderLimit.set({ channel }, limit),
      ...(options.loopDelay ? { sampler: options.loopDelay } : {}),
    });
    for (const partition of partitions) {
      for (const channel of options.channels.filter((c) => CHANNELS.includes(c))) {
        for (const priority of PRIORITIES) {
          const spec = bulkheads[channel][priority];
          const rate = Math.ceil(spec.ratePerSecond / partitionCount);
          const concurrency = Math.ceil(spec.concurrency / Math.max(1, partitions.length));
          const name = channelQueueName(channel, priority);
          const prefix = queuePrefix(partition);
          const runner = {
            process: (data: StepJobData, run: { jobId?: string; leaseMs?: number }) => options.processor.process(data, run),
            semaphore: semaphore(channel, priority),
            leaseMs: Math.floor(locks.lockDurationMs / 2),
            ...(rate > 0 ? { split: (steps: StepJobData[]) => options.processor.splitBatch(steps) } : {}),
            ...(fair ? { started: (data: LaneJobData) => fair.started({ qualifiedName: `${prefix}:${name}` }, data.start) } : {}),
            ...(priority === 'urgent' ? { takenUp: (steps: StepJobData[]) => options.processor.takenUp(steps) } : {}),
          };
          const lane: Lane = {
            name,
            partition,
            concurrency,
            queue: new Queue(name, { connection: options.connection, prefix }),
            inFlight: 0,
            lastStartAt: Date.now(),
            replaced: 0,
            create: () => {
              const worker = new Worker<LaneJobData, LaneJobResult>(
                name,
                async (job) => {
                  lane.inFlight += 1;
                  lane.lastStartAt = Date.now();
                  if (priority === 'urgent') this.governor.urgentStarted();
                  try {
                    return await runLaneJob(job, runner);
                  } finally {
                    lane.inFlight -= 1;
                    coalesce();
                  }
                },
                {
                  connection: options.connection,
                  prefix,
                  concurrency,
                  lockDuration: locks.lockDurationMs,
                  stalledInterval: locks.stalledIntervalMs,
                  maxStalledCount: locks.maxStalledCount,
                  // A fetch or completion cut by a lost connection (a master failover) is retried after 1 s, not BullMQ's 15 s that leave the lane idle:
                  // the worker connection queues commands while Redis is away, so a shorter retry is no busy loop.
                  runRetryDelay: 1_000,
                  ...(rate > 0 ? { limiter: { max: rate, duration: 1_000 } } : {}),
                  autorun: false,
                },
              );
              worker.on('failed', (job, error) => void onLaneJobFailed(options, job, error));
              worker.on('error', (error) => options.logger.error({ err: error, queue: worker.name, partition }, 'worker error'));
              return worker;
            },
            worker: undefined as unknown as Worker<LaneJobData, LaneJobResult>,
          };
          lane.queue.on('error', (error) => options.logger.error({ err: error, queue: name, partition }, 'queue error'));
          lane.worker = lane.create();
          this.lanes.push(lane);
        }
      }
    }
  }

  start(): void {
    this.governor.start();
    for (const lane of this.lanes) this.run(lane.worker);
    const { intervalMs } = this.options.watchdog ?? DEFAULT_LANE_WATCHDOG;
    this.timer = setInterval(() => void this.checkLanes(), intervalMs);
    this.timer.unref();
  }

  async waitUntilReady(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.worker.waitUntilReady()));
  }

  /** Graceful stop: take no new jobs, finish the ones in flight, then close connections. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    this.governor.stop();
    await Promise.all(this.lanes.map((l) => l.worker.close()));
    await this.options.fairShare?.advance();
    await Promise.all(this.lanes.map((l) => l.queue.close()));
  }

  private run(worker: Worker<LaneJobData, LaneJobResult>): void {
    void worker.run().catch((error: unknown) => this.options.logger.error({ err: error, queue: worker.name }, 'worker stopped'));
  }

  /** The lane watchdog's pass: one at a time (a check may wait out a failover on the shared connection). */
  private async checkLanes(): Promise<void> {
    if (this.checking || this.closing) return;
    this.checking = true;
    try {
      const config = this.options.watchdog ?? DEFAULT_LANE_WATCHDOG;
      for (const lane of this.lanes) {
        if (this.closing) return;
        const now = Date.now();
        // Cheap test first: a lane that started a job recently or has no free slot is not read.
        if (!laneIsStuck({ runnable: 1, inFlight: lane.inFlight, concurrency: lane.concurrency, lastStartAt: lane.lastStartAt, now }, config)) continue;
        const runnable = await this.runnable(lane.queue, now).catch(() => 0);
        if (laneIsStuck({ runnable, inFlight: lane.inFlight, concurrency: lane.concurrency, lastStartAt: lane.lastStartAt, now: Date.now() }, config))
          this.replace(lane, runnable);
      }
    } finally {
      this.checking = false;
    }
  }

  /** Waiting and prioritized jobs, plus one if the oldest delayed job is already due. */
  private async runnable(queue: Queue, now: number): Promise<number> {
    const counts = await queue.getJobCounts('waiting', 'prioritized');
    const [delayed] = await queue.getDelayed(0, 0);
    const due = delayed !== undefined && delayed.timestamp + delayed.delay <= now ? 1 : 0;
    return (counts.waiting ?? 0) + (counts.prioritized ?? 0) + due;
  }

  /** A fresh Worker for the lane; the old one closed without waiting (its fetch loop may never return): its jobs finish or, their locks lapsing, run again. */
  private replace(lane: Lane, runnable: number): void {
    const old = lane.worker;
    lane.replaced += 1;
    lane.lastStartAt = Date.now();
    this.options.logger.warn(
      {
        queue: lane.name,
        partition: lane.partition,
        runnable,
        inFlight: lane.inFlight,
        replaced: lane.replaced,
        blocking: blockingState(old),
        running: old.isRunning(),
      },
      'lane worker started no job while jobs were runnable: replaced by a new worker',
    );
    lane.worker = lane.create();
    this.run(lane.worker);
    void old.close(true).catch(() => undefined);
  }
}

/** For the watchdog's log line only (a BullMQ internal, read defensively): the status of a worker's blocking connection. */
function blockingState(worker: Worker): string {
  const internals = worker as unknown as { backend?: { blockingConnection?: { _client?: { status?: string } } } };
  return internals.backend?.blockingConnection?._client?.status ?? 'unknown';
}
