import type { StepJobData } from './job-data';

/** STEP_BATCH_MAX / STEP_BATCH_WINDOW_MS: how first steps are grouped into batch jobs. */
export interface StepBatchConfig {
  /** Items per batch job at most; 1 = no batches (one `step` job per notification, today's ids). */
  max: number;
  /** How long the single-POST batcher holds the first item of a lane for others; 0 = add at once. */
  windowMs: number;
}

export const DEFAULT_STEP_BATCH: StepBatchConfig = { max: 64, windowMs: 2 };

/** One lane's pending first steps (lane = channel, priority class, partition). */
interface Pending {
  items: StepJobData[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
  timer: NodeJS.Timeout | undefined;
}

/**
 * The single-POST intake's micro-batcher: each request's first step waits at most `windowMs`
 * for other first steps of its lane, then the lane's items go out as one batch job (one
 * BullMQ add instead of one per notification). Every waiting request resolves only after the
 * add, so its 202 still means "the job is in Redis"; an add that fails rejects every waiter
 * (each request answers 503, as a failed add does without batches, and the client's retry is
 * idempotent). A process that dies between the intake script and the add leaves records in
 * the pending-intake set, which the intake sweeper re-adds.
 */
export class FirstStepBatcher {
  private readonly lanes = new Map<string, Pending>();
  /** Adds under way (settled ones leave): what flushAll waits for. */
  private readonly adding = new Set<Promise<void>>();

  constructor(
    private readonly config: StepBatchConfig,
    /** Adds one lane's items (1..max, all of one lane) as one job. */
    private readonly addLane: (items: StepJobData[]) => Promise<void>,
    /** The lane of an item (channel, priority class, partition), as a map key. */
    private readonly laneOf: (data: StepJobData) => string,
  ) {}

  /** Resolves once the item's job (alone or in a batch) exists. */
  add(data: StepJobData): Promise<void> {
    if (this.config.max <= 1 || this.config.windowMs <= 0) return this.addLane([data]);
    const lane = this.laneOf(data);
    const pending = this.lanes.get(lane) ?? this.open(lane);
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

  private open(lane: string): Pending {
    const pending: Pending = { items: [], waiters: [], timer: undefined };
    this.lanes.set(lane, pending);
    return pending;
  }

  private flush(lane: string): void {
    const pending = this.lanes.get(lane);
    if (!pending) return;
    this.lanes.delete(lane);
    if (pending.timer) clearTimeout(pending.timer);
    const { items, waiters } = pending;
    const adding = this.addLane(items).then(
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
