import type { Redis, Cluster } from 'ioredis';
import type { Registry } from 'prom-client';
import { NotifyError, allPartitions, pendingIntakeKey, pendingUrgentKey, type Priority } from '@notify/core';
import { createBackpressureMetrics } from '@notify/metrics';
import { tenantsAtFairShare, type TenantBacklogSource } from './tenant-shares';

/**
 * How far behind the lanes may fall before intake pushes back (docs/backpressure.md).
 * `waitMs`: a reminder is refused while more than `count` notifications (of either class) have
 * made no progress for longer than this; an urgent one only while more than `count` urgent
 * notifications have waited three times as long for a worker to take up their first step.
 */
export interface BackpressureConfig {
  /** 0 turns the check off. */
  waitMs: number;
  count: number;
  /** How often each api process reads the backlog. */
  pollMs: number;
}

export const DEFAULT_BACKPRESSURE: BackpressureConfig = { waitMs: 10_000, count: 500, pollMs: 250 };

/** Urgent work is refused last: only when the lanes are this many times further behind. */
export const URGENT_WAIT_FACTOR = 3;

/**
 * With per-tenant push-back, a tenant below its fair share of the backlog is refused only once
 * the lanes are this many times further behind than its class's bound: past it, everyone is.
 */
export const EVERY_TENANT_WAIT_FACTOR = 3;

const BACKLOG_FULL = Symbol.for('notify.backlog-full-error');

/** New work refused while the lanes are behind: 503 with the seconds after which to come back. */
export class BacklogFullError extends NotifyError {
  readonly [BACKLOG_FULL] = true;

  constructor(
    readonly priority: Priority,
    readonly retryAfterSeconds: number,
  ) {
    super('BACKLOG_FULL', `the lanes are behind: new ${priority} notifications are refused until they catch up; retry after Retry-After seconds`);
  }
}

export function isBacklogFullError(error: unknown): error is BacklogFullError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BACKLOG_FULL] === true;
}

/** What the backlog reading found: notifications past each class's wait, summed over the partitions. */
export interface BacklogReading {
  overdueReminder: number;
  overdueUrgent: number;
  /**
   * Per-tenant push-back (a TenantBacklogSource given): past EVERY_TENANT_WAIT_FACTOR times
   * each class's wait, and the tenants holding at least their fair share of that class's
   * backlog, read while the class is behind. Absent: every tenant is refused alike.
   */
  tenants?: Record<Priority, { overdue: number; refused: ReadonlySet<string> }>;
}

/**
 * The lanes' backlog as intake sees it, counted by age with one ZCOUNT per class and partition
 * every `pollMs`: for reminders, every notification not yet terminal by its last progress (the
 * pending-intake sets); for urgent work, the urgent notifications whose first step no worker
 * has taken up (the pending-urgent sets), so a reminder backlog, however old, never refuses
 * urgent work while the urgent lanes keep up. Reading ages, not lengths, makes the bound
 * "seconds behind" whatever the platform's capacity. A reading that fails keeps the last one:
 * intake itself then answers whether Redis is there.
 */
export class IntakeBacklog {
  private reading: BacklogReading = { overdueReminder: 0, overdueUrgent: 0 };
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly partitions: number,
    readonly config: BackpressureConfig,
    private readonly now: () => number = Date.now,
    private readonly tenantBacklogs?: TenantBacklogSource,
  ) {}

  get enabled(): boolean {
    return this.config.waitMs > 0;
  }

  get last(): BacklogReading {
    return this.reading;
  }

  start(onReading?: (reading: BacklogReading) => void): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => {
      if (this.polling) return;
      this.polling = true;
      this.read()
        .then((reading) => onReading?.(reading))
        .catch(() => undefined)
        .finally(() => {
          this.polling = false;
        });
    }, this.config.pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads the backlog now (the poll's step; tests call it to decide without waiting). */
  async read(): Promise<BacklogReading> {
    const now = this.now();
    const overdue = async (priority: Priority, waitMs: number) => {
      const key = priority === 'urgent' ? pendingUrgentKey : pendingIntakeKey;
      const counts = await Promise.all(allPartitions(this.partitions).map((p) => this.redis.zcount(key(p), '-inf', `(${now - waitMs}`)));
      return counts.reduce((a, b) => a + b, 0);
    };
    const wait = { reminder: this.config.waitMs, urgent: this.config.waitMs * URGENT_WAIT_FACTOR };
    const [overdueReminder, overdueUrgent] = await Promise.all([overdue('reminder', wait.reminder), overdue('urgent', wait.urgent)]);
    const source = this.tenantBacklogs;
    if (!source) return (this.reading = { overdueReminder, overdueUrgent });
    // The tenants' shares are read only while a class is behind: nothing is spent while the lanes keep up.
    const perClass = async (priority: Priority, behind: number) => {
      if (behind <= this.config.count) return { overdue: 0, refused: new Set<string>() };
      const [everyone, backlogs] = await Promise.all([overdue(priority, wait[priority] * EVERY_TENANT_WAIT_FACTOR), source.read(priority)]);
      return { overdue: everyone, refused: tenantsAtFairShare(backlogs, (t) => source.weightOf(t)) };
    };
    const [reminder, urgent] = await Promise.all([perClass('reminder', overdueReminder), perClass('urgent', overdueUrgent)]);
    return (this.reading = { overdueReminder, overdueUrgent, tenants: { reminder, urgent } });
  }

  /**
   * The refusal for new work of `priority` from `tenant`, or undefined while the lanes keep up.
   * With per-tenant push-back a tenant below its fair share of the backlog is still taken until
   * the lanes are far behind; without a tenant, the answer is whether anyone is refused.
   */
  refusal(priority: Priority, tenant?: string): BacklogFullError | undefined {
    if (!this.enabled) return undefined;
    const overdue = priority === 'urgent' ? this.reading.overdueUrgent : this.reading.overdueReminder;
    if (overdue <= this.config.count) return undefined;
    const shares = this.reading.tenants?.[priority];
    const spared = shares !== undefined && tenant !== undefined && shares.overdue <= this.config.count && !shares.refused.has(tenant);
    if (spared) return undefined;
    // Long enough for part of the backlog to drain, short enough to find the lanes free soon after.
    return new BacklogFullError(priority, Math.max(1, Math.ceil(this.config.waitMs / 4_000)));
  }
}

/**
 * The api's backlog, read every `pollMs` from now on, its readings exported as metrics; with
 * `tenantBacklogs` (LANE_FAIR_SHARE), pushing back on the tenants that hold the backlog.
 */
export function startIntakeBacklog(
  redis: Redis | Cluster,
  partitions: number,
  config: BackpressureConfig,
  registry: Registry,
  tenantBacklogs?: TenantBacklogSource,
): IntakeBacklog {
  const backlog = new IntakeBacklog(redis, partitions, config, Date.now, tenantBacklogs);
  const metrics = createBackpressureMetrics(registry);
  backlog.start((reading) => metrics.observe(reading, (priority) => backlog.refusal(priority) !== undefined));
  return backlog;
}
