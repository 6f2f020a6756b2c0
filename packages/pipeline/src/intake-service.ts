import {
  CHANNELS,
  NotifyError,
  addressHash,
  isNotifyError,
  nextCascadeStep,
  notificationId,
  notificationRequestSchema,
  parseOrThrow,
  partitionOfId,
  payloadFingerprint,
  planCascade,
  recipientHash,
  validationError,
  type Addresses,
  type Channel,
  type NotificationRequest,
  type NotificationStatus,
  type SkipReason,
} from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import type { ChannelGate } from './channel-gate';
import type { ChannelQueues } from './channel-queues';
import type { StepJobData } from './job-data';
import type { RecipientStore } from './recipient-store';
import type { ReplicaWaiter } from './replica-wait';
import type { IntakeArgs, Scripts } from './scripts';
import { isRedisUnavailable } from './redis-unavailable';

export interface IntakeConfig {
  /** How long a record (idempotency key, status, history) lives; at least 24 h. */
  recordTtlSeconds: number;
  /** How far back intake looks for compact entries of archived notifications (the idempotency window). */
  idempotencyWindowSeconds?: number;
  budget: number;
}

export type IntakeResult = { kind: 'accepted'; id: string; status: NotificationStatus } | { kind: 'duplicate'; id: string; status: NotificationStatus };

export interface BatchItemResult {
  index: number;
  httpStatus: number;
  id?: string;
  status?: NotificationStatus;
  duplicate?: boolean;
  error?: { code: string; message: string; details?: { field: string; reason: string }[] };
}

interface Prepared {
  request: NotificationRequest;
  args: IntakeArgs;
}

/**
 * Accepting a notification = one Lua call that reserves the idempotency key and writes the
 * record, then one idempotent enqueue of the first step. The 202 is sent only after both, so
 * a 202 means the job is in Redis; a client retry after a crash in between finds the record
 * ('accepted', never started) and re-adds the same job id, which BullMQ ignores if it exists.
 * The router runs here as a function (no extra queue hop): the cascade plan is computed from
 * the recipient's preferences, its addresses and the breakers, and the first step is
 * enqueued straight into the channel's lane of the right priority class.
 */
export class IntakeService {
  constructor(
    private readonly deps: {
      scripts: Scripts;
      queues: ChannelQueues;
      recipients: RecipientStore;
      gate: ChannelGate;
      metrics: PipelineMetrics;
      config: IntakeConfig;
      now?: () => number;
      /** WAIT for replicas after the writes, before the 202 (INTAKE_WAIT_REPLICAS; absent or 0 = no WAIT). */
      replication?: ReplicaWaiter;
      /**
       * Whether some configured provider of the channel can carry this address (Web Push takes
       * subscriptions, FCM device tokens). Absent: every address is carriable (the simulators).
       */
      carriable?: (channel: Channel, address: string) => boolean;
    },
  ) {}

  /** PARTITIONS: what a lookup by id needs to find the record (the id names its partition). */
  get partitions(): number {
    return this.deps.queues.partitions;
  }

  async accept(tenant: string, body: unknown): Promise<IntakeResult> {
    let priority: NotificationRequest['priority'] | undefined;
    try {
      const request = parseOrThrow(notificationRequestSchema, body);
      priority = request.priority;
      const prepared = await this.prepare(tenant, request, await this.deps.gate.openChannels());
      const result = await this.reserve(prepared);
      if (result.enqueue) {
        if (result.outcome.kind === 'accepted') await this.deps.queues.enqueueFirstStep(request.priority, result.enqueue);
        else await this.deps.queues.enqueueStep(request.priority, result.enqueue);
        await this.replicated([result.enqueue.id]);
      }
      this.deps.metrics.intakeRequests.inc({ result: result.outcome.kind, priority: request.priority });
      return result.outcome;
    } catch (error) {
      throw this.classify(error, priority);
    }
  }

  /** Up to 1,000 notifications: per-item results; the enqueues go out as one bulk per lane. */
  async acceptBatch(tenant: string, items: unknown[]): Promise<BatchItemResult[]> {
    const results: BatchItemResult[] = new Array<BatchItemResult>(items.length);
    const open = await this.deps.gate.openChannels().catch((e: unknown) => {
      throw this.classify(e, undefined);
    });
    const enqueues: { index: number; priority: NotificationRequest['priority']; data: StepJobData; again: boolean }[] = [];
    const outcomes = new Map<number, IntakeResult>();
    await Promise.all(
      items.map(async (item, index) => {
        try {
          const request = parseOrThrow(notificationRequestSchema, item, `notifications.${index}`);
          const reserved = await this.reserve(await this.prepare(tenant, request, open));
          outcomes.set(index, reserved.outcome);
          this.deps.metrics.intakeRequests.inc({ result: reserved.outcome.kind, priority: request.priority });
          if (reserved.enqueue) enqueues.push({ index, priority: request.priority, data: reserved.enqueue, again: reserved.outcome.kind === 'duplicate' });
        } catch (error) {
          const failure = this.classify(error, undefined);
          results[index] = {
            index,
            httpStatus: failure.httpStatus,
            error: { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}) },
          };
        }
      }),
    );
    try {
      await this.deps.queues.enqueueFirstSteps(enqueues);
      await this.replicated(enqueues.map((e) => e.data.id));
    } catch (error) {
      const failure = this.classify(error, undefined);
      // The records exist; a retry of these items re-adds their jobs (status still 'accepted').
      for (const { index } of enqueues) {
        outcomes.delete(index);
        results[index] = { index, httpStatus: failure.httpStatus, error: { code: failure.code, message: failure.message } };
      }
    }
    for (const [index, outcome] of outcomes) {
      results[index] = {
        index,
        httpStatus: outcome.kind === 'accepted' ? 202 : 200,
        id: outcome.id,
        status: outcome.status,
        duplicate: outcome.kind === 'duplicate',
      };
    }
    return results;
  }

  /**
   * With replication on: WAIT until the replicas hold these notifications' records and first
   * jobs (they share their partition's slot, so one WAIT per partition covers them). Fewer
   * replicas in time: still accepted, counted as `short`. The WAIT itself failing (the
   * master's connection broke): the writes may be lost with it, so the request fails with a
   * 503 and the client's retry (idempotent) writes them again.
   */
  private async replicated(ids: readonly string[]): Promise<void> {
    const waiter = this.deps.replication;
    if (!waiter?.enabled || ids.length === 0) return;
    const byPartition = new Map<number, string[]>();
    for (const id of ids) {
      const p = partitionOfId(id, this.deps.queues.partitions);
      byPartition.set(p, [...(byPartition.get(p) ?? []), id]);
    }
    try {
      const results = await Promise.all([...byPartition].map(([p, written]) => waiter.afterWrite(p, written)));
      for (const result of results) this.deps.metrics.intakeReplication.inc({ result });
    } catch (error) {
      this.deps.metrics.intakeReplication.inc({ result: 'error' });
      throw error;
    }
  }

  /** An address no provider of its channel can ever carry is refused now (400 naming it), not discovered by a worker. */
  private refuseUncarriable(addresses: Addresses, stored: boolean): void {
    const carriable = this.deps.carriable;
    if (!carriable) return;
    const details = CHANNELS.flatMap((c) => {
      const address = addresses[c];
      if (address === undefined || carriable(c, address)) return [];
      const form = c === 'push' && address.startsWith('{') ? 'a Web Push subscription' : 'this form of address';
      return [{ field: `recipient.addresses.${c}`, reason: `no configured ${c} provider can carry ${form}${stored ? ' (in the stored profile)' : ''}` }];
    });
    if (details.length > 0) throw validationError(details);
  }

  private async prepare(tenant: string, request: NotificationRequest, open: ReadonlySet<Channel>): Promise<Prepared> {
    const now = (this.deps.now ?? Date.now)();
    let { addresses, preferences } = request.recipient;
    if (addresses === undefined) {
      const stored = await this.deps.recipients.get(tenant, request.recipient.id);
      if (!stored) {
        throw new NotifyError(
          'RECIPIENT_NOT_FOUND',
          `recipient '${request.recipient.id}' has no stored profile; send recipient.addresses or PUT /v1/recipients/${request.recipient.id} first`,
        );
      }
      addresses = stored.addresses;
      preferences = preferences ?? stored.preferences;
    }
    this.refuseUncarriable(addresses, request.recipient.addresses === undefined);
    const plan = planCascade(preferences, addresses);
    if (plan.length === 0) {
      throw new NotifyError('NO_DELIVERABLE_CHANNEL', 'the recipient has no address on any channel (push, sms, email)', {
        details: [{ field: 'recipient.addresses', reason: 'must hold at least one of push, sms, email' }],
      });
    }
    const unavailable = (c: Channel): SkipReason | undefined => (open.has(c) ? 'breaker-open' : undefined);
    const first = nextCascadeStep(plan, [], this.deps.config.budget, unavailable);
    const firstChannel = first.kind === 'send' ? first.channel : (plan[0] as Channel);
    const skips = first.kind === 'send' ? first.skipped.map((s) => ({ ...s, at: now })) : [];
    for (const s of skips) this.deps.metrics.skips.inc({ channel: s.channel, reason: s.reason });
    const id = notificationId(tenant, request.eventId, request.recipient.id);
    const rh = recipientHash(tenant, request.recipient.id);
    const addressHashes = Object.fromEntries(plan.map((c) => [c, addressHash(c, addresses[c] as string)]));
    const args: IntakeArgs = {
      id,
      fingerprint: payloadFingerprint(request),
      tenant,
      eventId: request.eventId,
      recipientId: request.recipient.id,
      rh,
      priority: request.priority,
      plan,
      firstChannel,
      content: request.content,
      addresses,
      addressHashes,
      now,
      recordTtlSeconds: this.deps.config.recordTtlSeconds,
      idempotencyWindowSeconds: this.deps.config.idempotencyWindowSeconds,
      skips,
    };
    return { request, args };
  }

  private async reserve({ request, args }: Prepared): Promise<{ outcome: IntakeResult; enqueue?: StepJobData }> {
    const reply = await this.deps.scripts.intake(args);
    const job = (c: Channel): StepJobData => ({ id: args.id, rh: args.rh, priority: request.priority, step: 1, channel: c });
    switch (reply.code) {
      case 'created':
        return { outcome: { kind: 'accepted', id: args.id, status: 'accepted' }, enqueue: job(args.firstChannel) };
      case 'duplicate': {
        this.deps.metrics.duplicatesBlocked.inc({ stage: 'intake' });
        const outcome: IntakeResult = { kind: 'duplicate', id: args.id, status: reply.status };
        return reply.firstChannel ? { outcome, enqueue: job(reply.firstChannel) } : { outcome };
      }
      case 'conflict':
        throw new NotifyError(
          'IDEMPOTENCY_CONFLICT',
          `event '${request.eventId}' for recipient '${request.recipient.id}' was accepted before with a different payload (notification ${args.id})`,
        );
    }
  }

  private classify(error: unknown, priority: NotificationRequest['priority'] | undefined): NotifyError {
    const labels = { priority: priority ?? 'unknown' };
    if (isNotifyError(error)) {
      const result =
        error.code === 'IDEMPOTENCY_CONFLICT' ? 'conflict' : error.code === 'VALIDATION_FAILED' ? 'invalid' : error.httpStatus < 500 ? 'rejected' : 'error';
      this.deps.metrics.intakeRequests.inc({ ...labels, result });
      return error;
    }
    this.deps.metrics.intakeRequests.inc({ ...labels, result: 'error' });
    if (!isRedisUnavailable(error)) return new NotifyError('INTERNAL', 'unexpected intake failure', { cause: error });
    return new NotifyError(
      'DEPENDENCY_UNAVAILABLE',
      'the queue store (Redis) did not answer; retry with the same event id (idempotent: it is accepted at most once)',
      { cause: error },
    );
  }
}
