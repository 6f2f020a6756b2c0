import { CANCELED_REASON, eventIndexKey, type NotificationStatus } from '@notify/core';
import type { ParkedStore } from '@notify/history';
import type { PipelineMetrics } from '@notify/metrics';
import type { RedisClient } from '@notify/runtime';
import type { NotificationLookup } from './notification-reader';
import type { Scripts } from './scripts';
import type { StepEventPublisher } from './step/step-subscribers';

/** What a cancel by id found: `refused.state` is `sending` (a call in flight or unsettled) or the terminal status. */
export type CancelOutcome = { kind: 'canceled' } | { kind: 'refused'; state: NotificationStatus } | { kind: 'not-found' };

/** A cancel by event: how many of its notifications ended canceled, could not be (by state), or were gone. */
export interface EventCancelCounts {
  canceled: number;
  notCancelable: number;
  notFound: number;
  /** The states of the ones not cancelable (`sending`, `delivered`, ...), counted. */
  notCancelableByState: Partial<Record<NotificationStatus, number>>;
}

export interface CancelServiceDeps {
  redis: RedisClient;
  scripts: Pick<Scripts, 'cancelNotification' | 'restoreParked'>;
  /** Scheduled notifications parked in PostgreSQL (history on): canceled from their bodies there. */
  parked?: Pick<ParkedStore, 'get' | 'ofEvent' | 'remove'>;
  /** Reads an archived one (the history) for a cancel that finds no record in Redis. */
  lookup: NotificationLookup;
  metrics: Pick<PipelineMetrics, 'canceled'>;
  /** Tenant webhooks: `notification.canceled` (best effort, as every terminal event). */
  events?: StepEventPublisher;
  partitions: number;
  now?: () => number;
}

/**
 * DELETE /v1/notifications/:id and ?eventId=: the decision is cancel-notification-5's, taken
 * atomically with any attempt a worker would open. A notification parked in PostgreSQL is
 * canceled by restore-parked-2 taking its stub (so the promoter never brings it back) and
 * recreating it `canceled` for the archiver. A notification no longer in Redis is looked up in
 * the history: its final status answers (canceled again: as the first cancel did).
 */
export class CancelService {
  constructor(private readonly deps: CancelServiceDeps) {}

  cancel(tenant: string, id: string): Promise<CancelOutcome> {
    return this.attempt(tenant, id, true);
  }

  private async attempt(tenant: string, id: string, tryParked: boolean): Promise<CancelOutcome> {
    const { deps } = this;
    const reply = await deps.scripts.cancelNotification({ id, tenant, now: (deps.now ?? Date.now)(), reason: CANCELED_REASON });
    switch (reply.code) {
      case 'canceled':
        deps.metrics.canceled.inc({ priority: reply.priority });
        await this.announce(tenant, id);
        return { kind: 'canceled' };
      case 'already':
        return { kind: 'canceled' };
      case 'refused':
        return { kind: 'refused', state: reply.state };
      case 'missing': {
        const parked = tryParked ? await this.cancelParked(tenant, id) : undefined;
        if (parked) return parked;
        const archived = await deps.lookup.get(tenant, id);
        if (!archived) return { kind: 'not-found' };
        return archived.status === 'canceled' ? { kind: 'canceled' } : { kind: 'refused', state: archived.status };
      }
    }
  }

  /** Every notification of (tenant, event id) still in Redis, from the event index of each partition. */
  async cancelEvent(tenant: string, eventId: string): Promise<EventCancelCounts> {
    const counts: EventCancelCounts = { canceled: 0, notCancelable: 0, notFound: 0, notCancelableByState: {} };
    const keys = Array.from({ length: this.deps.partitions }, (_, p) => eventIndexKey(tenant, eventId, p));
    const inRedis = Promise.all(keys.map((key) => this.deps.redis.smembers(key)));
    const parked = this.deps.parked?.ofEvent(tenant, eventId) ?? Promise.resolve([]);
    const ids = [...new Set([...(await inRedis).flat(), ...(await parked)])];
    const outcomes = await Promise.all(ids.map((id) => this.cancel(tenant, id)));
    for (const outcome of outcomes) {
      if (outcome.kind === 'canceled') counts.canceled += 1;
      else if (outcome.kind === 'not-found') counts.notFound += 1;
      else {
        counts.notCancelable += 1;
        counts.notCancelableByState[outcome.state] = (counts.notCancelableByState[outcome.state] ?? 0) + 1;
      }
    }
    return counts;
  }

  /**
   * A parked one of this tenant: canceled if its stub is still there. Else it was promoted (or
   * canceled) since the cancel script looked: the record is in Redis again, so the cancel runs
   * once more there. Undefined: not parked.
   */
  private async cancelParked(tenant: string, id: string): Promise<CancelOutcome | undefined> {
    const { deps } = this;
    const row = await deps.parked?.get(id);
    if (!row || row.tenant !== tenant) return undefined;
    const now = (deps.now ?? Date.now)();
    const [outcome] = await deps.scripts.restoreParked({ mode: 'cancel', bodies: [row], tenant, now, reason: CANCELED_REASON }, row.partition);
    if (outcome !== 'restored') return this.attempt(tenant, id, false);
    deps.metrics.canceled.inc({ priority: row.fields.priority ?? '' });
    await this.announce(tenant, id);
    // A row left by a failure here is stale (its stub is gone): the promoter deletes it when its time comes.
    await deps.parked?.remove([id]).catch(() => undefined);
    return { kind: 'canceled' };
  }

  private async announce(tenant: string, id: string): Promise<void> {
    try {
      await this.deps.events?.publish({ type: 'notification.canceled', notificationId: id, tenant });
    } catch {
      // Best effort beside the cancel, as the step's terminal events are: the cancel stands.
    }
  }
}
