import { z } from 'zod';
import type { StepJobData } from './job-data';

/** INTAKE_BATCH_MAX / INTAKE_BATCH_WINDOW_MS: how first steps are grouped into batch jobs. */
export interface StepBatchConfig {
  /** Items per batch job at most; 1 = no batches (one `step` job per notification, today's ids). */
  max: number;
  /** How long the single-POST batcher holds the first item of a lane for others; 0 = add at once. */
  windowMs: number;
}

export const DEFAULT_STEP_BATCH: StepBatchConfig = { max: 64, windowMs: 2 };

/**
 * The worker's later steps (CASCADE_BATCH_WINDOW_MS): a cascade step is due 30 s after the
 * previous one by default, so waiting up to 20 ms for others of its lane and delay costs it
 * little, and it spares each one a whole BullMQ job (add, promotion, take, finish).
 */
export const DEFAULT_LATER_STEP_BATCH: StepBatchConfig = { max: DEFAULT_STEP_BATCH.max, windowMs: 20 };

/** The batch settings' env fields, defined once (the api reads max and window, the worker max and the later window). */
export const stepBatchEnv = {
  /** INTAKE_BATCH_MAX (api) or CASCADE_BATCH_MAX (worker): steps per batch job at most; 1 = one job per step. */
  max: z.coerce.number().int().min(1).max(1_000).default(DEFAULT_STEP_BATCH.max),
  /** INTAKE_BATCH_WINDOW_MS: how long a single POST's first step waits for others of its lane; 0 = added at once. */
  windowMs: z.coerce.number().int().min(0).max(60_000).default(DEFAULT_STEP_BATCH.windowMs),
  /** CASCADE_BATCH_WINDOW_MS: how long a cascade's next step waits for others of its lane and delay; 0 = one job per step. */
  laterWindowMs: z.coerce.number().int().min(0).max(60_000).default(DEFAULT_LATER_STEP_BATCH.windowMs),
};

/** One lane's pending steps (lane = channel, priority class, partition) of one delay. */
interface Pending {
  items: StepJobData[];
  delayMs: number;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
  timer: NodeJS.Timeout | undefined;
}

/**
 * A micro-batcher of step jobs: each step waits at most `windowMs` for other steps of its lane
 * (and of the same delay), then they go out as one batch job (one BullMQ add, and one job for
 * a worker to take, instead of one per notification). The single-POST intake batches first
 * steps with it; the worker batches the cascade's later steps (a delayed batch job starts its
 * items at most `windowMs` after each one's own delay). Every waiter resolves only after the
 * add: an intake's 202 still means "the job is in Redis", and a worker's step ends only once
 * its next step's job exists. An add that fails rejects every waiter (each request answers 503,
 * as a failed add does without batches, and the client's retry is idempotent; a worker's step
 * throws and BullMQ retries it). A process that dies between the record's write and the add
 * leaves the notification in the pending set, which the intake sweeper re-adds.
 */
export class StepBatcher {
  private readonly lanes = new Map<string, Pending>();
  /** Adds under way (settled ones leave): what flushAll waits for. */
  private readonly adding = new Set<Promise<void>>();

  constructor(
    private readonly config: StepBatchConfig,
    /** Adds one lane's items (1..max, all of one lane and delay) as one job, `delayMs` from now. */
    private readonly addLane: (items: StepJobData[], delayMs: number) => Promise<void>,
    /** The lane of an item (channel, priority class, partition), as a map key. */
    private readonly laneOf: (data: StepJobData) => string,
  ) {}

  /** Resolves once the item's job (alone or in a batch, due `delayMs` after its add) exists. */
  add(data: StepJobData, delayMs = 0): Promise<void> {
    if (this.config.max <= 1 || this.config.windowMs <= 0) return this.addLane([data], delayMs);
    const lane = `${this.laneOf(data)}+${delayMs}`;
    const pending = this.lanes.get(lane) ?? this.open(lane, delayMs);
    const done = new Promise<void>((resolve, reject) => pending.waiters.push({ resolve, reject }));
    pending.items.push(data);
    if (pending.items.length >= this.config.max) this.flush(lane);
    else pending.timer ??= setTimeout(() => this.flush(lane), this.config.windowMs);
    return done;
  }

  /** Adds every lane's pending items now and waits for every add under way (a graceful stop leaves no request waiting). */
  async flushAll(): Promise<void> {
    for (const lane of [...this.lanes.keys()]) this.flush(lane);
    await Promise.all([...this.adding]);
  }

  private open(lane: string, delayMs: number): Pending {
    const pending: Pending = { items: [], delayMs, waiters: [], timer: undefined };
    this.lanes.set(lane, pending);
    return pending;
  }

  private flush(lane: string): void {
    const pending = this.lanes.get(lane);
    if (!pending) return;
    this.lanes.delete(lane);
    if (pending.timer) clearTimeout(pending.timer);
    const { items, delayMs, waiters } = pending;
    const adding = this.addLane(items, delayMs).then(
      () => {
        for (const w of waiters) w.resolve();
      },
      (error: unknown) => {
        for (const w of waiters) w.reject(error);
      },
    );
    this.adding.add(adding);
    void adding.finally(() => this.adding.delete(adding));
  }
}
