import type { Logger } from 'pino';
import {
  isTerminal,
  nextCascadeStep,
  notificationKey,
  partitionOfId,
  providerIdempotencyKey,
  renderForChannel,
  type Addresses,
  type AttemptOutcome,
  type Channel,
  type NotificationContent,
  type NotificationStatus,
  type RecordedOutcome,
  type RenderedMessage,
  type SkipReason,
} from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import type { RedisClient } from '@notify/runtime';
import type { CascadeConfig } from './cascade-config';
import type { ChannelGate, GateTicket } from './channel-gate';
import type { ChannelQueues } from './channel-queues';
import type { StepJobData } from './job-data';
import { recordAttempts, type RecordFields } from './notification-record';
import type { ProviderAdapter } from '@notify/providers';
import { providerAddress } from '@notify/providers';
import type { Scripts } from './scripts';
import { DEFAULT_RECEIPT_INDEX_TTL_SECONDS, notificationIdOfMessage, receiptIndexKey } from './receipts/keys';
import { NO_COALESCING, type WriteCoalescer } from './write-coalescer';

export interface StepProcessorDeps {
  redis: RedisClient;
  scripts: Scripts;
  queues: ChannelQueues;
  /** The providers the gate routes to, by name (a ProviderDirectory). */
  providers: ProviderLookup;
  gate: ChannelGate;
  metrics: PipelineMetrics;
  logger: Logger;
  config: CascadeConfig;
  /**
   * Channels whose providers differ in the addresses they carry, and for such a channel and an
   * address, the providers that can carry it (undefined: none can, the first provider answers).
   */
  addressRouting?: { channels: ReadonlySet<Channel>; filterFor(channel: Channel, storedAddress: string): ((provider: string) => boolean) | undefined };
  /** Per channel; default `resend` everywhere (what the simulators, which honour keys, never need). */
  unknownOutcomePolicy?: (channel: Channel) => UnknownOutcomePolicy;
  now?: () => number;
  /**
   * Tenant webhooks (packages/webhooks): told where a notification ends or an attempt failed. Never fails a step.
   * `tenant` when the processor has read it anyway (begin-attempt, the record of a cascade): the hook then reads no record.
   */
  events?: { publish(event: { type: StepEventType; notificationId: string; step?: number; tenant?: string }): Promise<void> };
  /** RECEIPT_INDEX_TTL_SECONDS: how long a provider message id finds its notification (docs/provider-events.md); default 30 days. */
  receiptIndexTtlSeconds?: number;
  /**
   * Called before the processor's own Redis commands (the webhook hook's reads, the record reads
   * of a cascade, step job adds): joins the socket writes of one event-loop turn (write-coalescer.ts).
   * The scripts take theirs through loadScripts. Default none.
   */
  coalesce?: WriteCoalescer;
}

/** What the step processor tells `events`: a notification's terminal state, or a failed attempt. */
export type StepEventType = 'notification.delivered' | 'notification.failed' | 'notification.unconfirmed' | 'attempt.failed';

/** Finds a provider's adapter by name (ProviderDirectory implements it). */
export interface ProviderLookup {
  get(name: string): ProviderAdapter;
}

/**
 * What an unknown outcome on a provider that takes no idempotency key and offers no lookup
 * becomes: `settle` ends the notification `unconfirmed` at once (no second send: it may have
 * been delivered), `resend` re-sends on the same provider (at least once: it may deliver twice).
 * Providers that honour a key always reconcile (a re-send is answered with the first result).
 */
export type UnknownOutcomePolicy = 'settle' | 'resend';

/** What a step job did; returned as the BullMQ job's result (visible in bull-board). */
export type StepResult =
  | { action: 'called'; outcome: AttemptOutcome; channel: Channel }
  | { action: 'skipped'; reason: SkipReason; channel: Channel }
  | { action: 'processing-error'; channel: Channel; reason: string }
  | { action: 'ignored'; reason: 'terminal' | 'missing' | 'stale' | 'busy' }
  | { action: 'resumed' };

interface Skip {
  channel: Channel;
  reason: SkipReason;
  at: number;
}

/**
 * The BullMQ job running a step: its id, and the in-flight lease (the worker's lockDuration / 2)
 * within which an attempt another job opened counts as still running (begin-attempt's `busy`).
 */
export interface StepRun {
  jobId?: string;
  leaseMs?: number;
}

/** What the step that was just finished ended with: `not-sent` is a call that provably never left. */
type After = RecordedOutcome | 'skip' | 'not-sent';

/**
 * Runs one step of one notification: at most one external call, then the decision of what
 * comes next. Every decision is taken against the record in Redis through one Lua script, so
 * BullMQ's at-least-once re-runs (stalled jobs, retries, a SIGKILLed worker) repeat nothing:
 * a re-run finds the step finished, in flight, or moved on, and only completes what is missing.
 */
export function createStepProcessor(deps: StepProcessorDeps) {
  const { redis, scripts, queues, providers, gate, metrics, config } = deps;
  const unknownPolicy = deps.unknownOutcomePolicy ?? (() => 'resend' as const);
  const now = deps.now ?? Date.now;
  const coalesce = deps.coalesce ?? NO_COALESCING;
  /**
   * Publishing is best effort beside the delivery: an error is logged, never thrown into the step.
   * `tenant`, where known, saves the hook its HGET of the record on every delivery.
   */
  const publish = async (type: StepEventType, data: StepJobData, tenant?: string) => {
    if (!deps.events) return;
    coalesce();
    try {
      await deps.events.publish({ type, notificationId: data.id, step: data.step, ...(tenant ? { tenant } : {}) });
    } catch (error) {
      deps.logger.warn({ err: error, notificationId: data.id, type }, 'webhook event not published');
    }
  };

  /**
   * A re-run of the job that ended the notification (its worker died after the status was
   * written and before the event was published) publishes the end again: the event's id comes
   * from (notification, type, step), so a receiver sees one event however many times it is
   * published. A stale job of another step publishes nothing.
   */
  async function republishEnd(data: StepJobData): Promise<void> {
    if (!deps.events) return;
    const [status, step, tenant] = await redis.hmget(notificationKey(data.id, partitionOfId(data.id, queues.partitions)), 'status', 'step', 'tenant');
    if (Number(step) !== data.step) return;
    const type =
      status === 'delivered'
        ? 'notification.delivered'
        : status === 'failed'
          ? 'notification.failed'
          : status === 'unconfirmed'
            ? 'notification.unconfirmed'
            : undefined;
    if (type) await publish(type, data, tenant ?? undefined);
  }

  async function process(data: StepJobData, run: StepRun = {}): Promise<StepResult> {
    // Only a channel whose providers differ in the addresses they carry reads the address (no await otherwise).
    const carries = data.provider === undefined && deps.addressRouting?.channels.has(data.channel) === true ? await carriesFor(data) : undefined;
    const ticket = await gate.acquire(data.channel, data.provider, carries);
    if (!ticket) {
      metrics.skips.inc({ channel: data.channel, reason: 'breaker-open' });
      await advance(data, [{ channel: data.channel, reason: 'breaker-open', at: now() }], 'skip');
      return { action: 'skipped', reason: 'breaker-open', channel: data.channel };
    }
    const begin = await scripts
      .beginAttempt({ id: data.id, rh: data.rh, step: data.step, channel: data.channel, now: now(), budget: config.budget, provider: ticket.provider, ...run })
      .catch(async (error: unknown) => {
        await ticket.release('not-called');
        throw error;
      });
    if (begin.code === 'proceed') return call(data, begin, ticket);
    await ticket.release('not-called');
    switch (begin.code) {
      case 'terminal':
        metrics.duplicatesBlocked.inc({ stage: 'worker' });
        await republishEnd(data);
        return { action: 'ignored', reason: 'terminal' };
      case 'missing':
        deps.logger.warn({ notificationId: data.id, step: data.step }, 'step job for a missing record (expired?)');
        return { action: 'ignored', reason: 'missing' };
      case 'suppressed':
        metrics.skips.inc({ channel: data.channel, reason: 'suppressed' });
        await advance(data, [{ channel: data.channel, reason: 'suppressed', at: now() }], 'skip');
        return { action: 'skipped', reason: 'suppressed', channel: data.channel };
      case 'busy': // another job (a batch and a re-added single job) holds this step in flight: it finishes it
        metrics.duplicatesBlocked.inc({ stage: 'worker' });
        return { action: 'ignored', reason: 'busy' };
      case 'stale':
        metrics.duplicatesBlocked.inc({ stage: 'worker' });
        await resume(data);
        return { action: 'ignored', reason: 'stale' };
      case 'crashed': // the worker died mid-call: the step is now unknown / worker-lost
      case 'budget':
        await resume(data);
        return { action: 'resumed' };
    }
  }

  /**
   * On a channel whose providers differ in the addresses they carry (Web Push and FCM on push),
   * which providers can carry this notification's address; undefined elsewhere (no read spent).
   */
  async function carriesFor(data: StepJobData): Promise<((provider: string) => boolean) | undefined> {
    if (data.provider !== undefined || !deps.addressRouting?.channels.has(data.channel)) return undefined;
    const raw = await redis.hget(notificationKey(data.id, partitionOfId(data.id, queues.partitions)), 'addresses');
    const address = raw ? (JSON.parse(raw) as Addresses)[data.channel] : undefined;
    return typeof address === 'string' ? deps.addressRouting.filterFor(data.channel, address) : undefined;
  }

  async function call(data: StepJobData, begin: { contentJson: string; addressesJson: string; tenant?: string }, ticket: GateTicket): Promise<StepResult> {
    let to: string;
    let message: RenderedMessage;
    let adapter: ProviderAdapter;
    try {
      const content = JSON.parse(begin.contentJson) as NotificationContent;
      const addresses = JSON.parse(begin.addressesJson) as Addresses;
      to = addresses[data.channel] as string;
      message = renderForChannel(data.channel, content, { smsMaxSegments: config.smsMaxSegments });
      adapter = providers.get(ticket.provider);
    } catch (error) {
      // Deterministic: the same record never renders on this channel. Nothing was called.
      await ticket.release('not-called');
      return processingError(data, error);
    }

    metrics.inFlight.inc({ channel: data.channel });
    let result;
    try {
      result = await adapter.send({
        notificationId: data.id,
        idempotencyKey: providerIdempotencyKey(data.id),
        to: providerAddress(to),
        message,
        priority: data.priority,
      });
    } finally {
      metrics.inFlight.dec({ channel: data.channel });
    }
    metrics.attempts.inc({ channel: data.channel, outcome: result.outcome });
    metrics.callDuration.observe({ channel: data.channel, outcome: result.outcome }, result.durationMs / 1000);

    const finished = await scripts.finishAttempt({
      id: data.id,
      rh: data.rh,
      channel: data.channel,
      step: data.step,
      outcome: result.outcome,
      errorClass: result.errorClass,
      message: result.message,
      now: now(),
      durationMs: result.durationMs,
      // Only an answer that says the address is dead suppresses it (552 mailbox full, 413 too large: not the address).
      suppressionTtlSeconds: result.addressInvalid ? config.suppressionTtlSeconds : 0,
      spent: result.sent,
      ...(result.providerMessageId ? { providerMessageId: result.providerMessageId } : {}),
    });
    await ticket.release(result.outcome);
    if (finished.code === 'recorded' && result.providerMessageId) await indexReceipt(data, ticket.provider, result.providerMessageId);
    if (finished.code === 'recorded' && result.outcome === 'delivered') {
      metrics.notifications.inc({ priority: data.priority, outcome: 'delivered' });
      metrics.deliveryLatency.observe({ priority: data.priority }, Math.max(0, now() - finished.acceptedAt) / 1000);
      metrics.cascadeDepth.observe({ outcome: 'delivered' }, finished.calls || 1);
      await publish('notification.delivered', data, begin.tenant);
      return { action: 'called', outcome: result.outcome, channel: data.channel };
    }
    if (finished.code === 'recorded' && result.outcome !== 'delivered') await publish('attempt.failed', data, begin.tenant);
    if (finished.code === 'recorded' && result.outcome === 'unknown' && !adapter.capabilities.idempotencyKey && !adapter.capabilities.lookup) {
      if (unknownPolicy(data.channel) === 'settle') {
        // A re-send could deliver twice and nothing can be asked: the outcome stays unknown, said as such.
        await settleUnconfirmed(
          data,
          `unknown outcome on ${adapter.name}, which takes no idempotency key: not re-sent (UNKNOWN_OUTCOME_${data.channel.toUpperCase()}=settle)`,
        );
        return { action: 'called', outcome: result.outcome, channel: data.channel };
      }
    }
    if (result.outcome !== 'delivered') await advance(data, [], result.sent ? result.outcome : 'not-sent');
    return { action: 'called', outcome: result.outcome, channel: data.channel };
  }

  /** Best effort: the receipt index (provider message -> notification) for provider events; a failure is counted, never thrown. */
  async function indexReceipt(data: StepJobData, provider: string, providerMessageId: string): Promise<void> {
    // The idempotency key names the notification by itself (the simulators answer it): no write on the hot path.
    if (notificationIdOfMessage(providerMessageId) === data.id) return;
    try {
      await redis.set(receiptIndexKey(provider, providerMessageId), data.id, 'EX', deps.receiptIndexTtlSeconds ?? DEFAULT_RECEIPT_INDEX_TTL_SECONDS);
    } catch (error) {
      metrics.receiptIndexFailures.inc({ channel: data.channel });
      deps.logger.warn({ err: error, notificationId: data.id }, 'receipt index not written');
    }
  }

  /** Ends the notification `unconfirmed` now: its last call's outcome is unknown and can never be settled. */
  async function settleUnconfirmed(data: StepJobData, reason: string): Promise<void> {
    const fields = await redis.hgetall(notificationKey(data.id, partitionOfId(data.id, queues.partitions)));
    const ended = await scripts.finishNotification({
      id: data.id,
      fromStep: Number(fields.step ?? data.step),
      status: 'unconfirmed',
      reason,
      now: now(),
      skips: [],
    });
    if (ended.code === 'ended') {
      metrics.notifications.inc({ priority: data.priority, outcome: 'unconfirmed' });
      metrics.cascadeDepth.observe({ outcome: 'unconfirmed' }, Number(fields.calls ?? 0));
      await publish('notification.unconfirmed', data, fields.tenant);
    }
  }

  /** A message that cannot be rendered for this channel: recorded as such, no call spent, the cascade moves on. */
  async function processingError(data: StepJobData, error: unknown): Promise<StepResult> {
    const reason = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 300);
    metrics.skips.inc({ channel: data.channel, reason: 'processing-error' });
    deps.logger.warn({ notificationId: data.id, step: data.step, channel: data.channel, reason }, 'message cannot be rendered for this channel; cascading');
    const finished = await scripts.finishAttempt({
      id: data.id,
      rh: data.rh,
      channel: data.channel,
      step: data.step,
      outcome: 'processing-error',
      errorClass: 'render-failed',
      message: reason,
      now: now(),
      durationMs: 0,
      suppressionTtlSeconds: 0,
      spent: false,
    });
    if (finished.code === 'recorded') await advance(data, [], 'processing-error');
    return { action: 'processing-error', channel: data.channel, reason };
  }

  /** A re-run found the step already handled: compute the next move from the record alone. */
  async function resume(data: StepJobData): Promise<void> {
    coalesce();
    const fields = (await redis.hgetall(notificationKey(data.id, partitionOfId(data.id, queues.partitions)))) as RecordFields;
    if (!fields.status || isTerminal(fields.status as NotificationStatus)) return;
    const step = Number(fields.step);
    const channel = fields.chan as Channel;
    const reconcileWith =
      fields.kind === 'reconcile' ? recordAttempts(fields).findLast((a) => a.channel === channel && a.outcome === 'unknown')?.provider : undefined;
    const { provider: _previous, ...base } = data;
    const current: StepJobData = { ...base, step, channel, ...(reconcileWith !== undefined ? { provider: reconcileWith } : {}) };
    const attempt = recordAttempts(fields).find((a) => a.step === step);
    if (attempt?.outcome !== undefined) {
      await advance(current, [], attempt.spent === false && attempt.outcome !== 'processing-error' ? 'not-sent' : attempt.outcome, fields);
    } else {
      // The current step has not run (or is running elsewhere): make sure its job exists.
      await queues.enqueueStep(data.priority, current);
    }
  }

  /**
   * Chooses and schedules the step after `data.step`: the pure cascade rule on the record's
   * history, the open breakers and the channels skipped in this notification.
   */
  async function advance(data: StepJobData, newSkips: Skip[], after: After, known?: RecordFields): Promise<void> {
    coalesce();
    const fields = known ?? (await redis.hgetall(notificationKey(data.id, partitionOfId(data.id, queues.partitions))));
    if (!fields.status) return;
    const plan = JSON.parse(fields.plan ?? '[]') as Channel[];
    const attempts = recordAttempts(fields).map((a) => ({ channel: a.channel, outcome: a.outcome, spent: a.spent }));
    const previousSkips = parseSkips(fields.skips);
    const suppressed = new Set([...previousSkips, ...newSkips].filter((s) => s.reason === 'suppressed').map((s) => s.channel));
    const open = new Set(await gate.openChannels());
    for (const s of newSkips) if (s.reason === 'breaker-open') open.add(s.channel);
    const unavailable = (c: Channel): SkipReason | undefined => (suppressed.has(c) ? 'suppressed' : open.has(c) ? 'breaker-open' : undefined);

    const decision = nextCascadeStep(plan, attempts, config.budget, unavailable);
    const skipsToRecord = [...newSkips];
    if (decision.kind === 'send' || decision.kind === 'wait') {
      for (const s of decision.skipped) {
        if (!newSkips.some((n) => n.channel === s.channel)) {
          skipsToRecord.push({ ...s, at: now() });
          metrics.skips.inc({ channel: s.channel, reason: s.reason });
        }
      }
    }
    const step = Number(fields.step);
    const acceptedAt = Number(fields.acceptedAt);

    if (decision.kind === 'done') return;
    // An unknown outcome waiting for its channel (breaker open, or connections refused) has
    // until the maximum age to be settled; after that it can never be, and says so. Calls that
    // never left spend no budget, so the maximum age also bounds a cascade of refusals.
    const waiting = decision.kind === 'wait' || (decision.kind === 'reconcile' && (after === 'skip' || after === 'not-sent'));
    const tooOld = (waiting || after === 'not-sent') && now() - acceptedAt > config.maxAgeMs;
    if (decision.kind === 'give-up' || decision.kind === 'unconfirmed' || tooOld) {
      const status = decision.kind === 'unconfirmed' || decision.kind === 'reconcile' ? 'unconfirmed' : 'failed';
      const reason =
        decision.kind === 'give-up' || decision.kind === 'unconfirmed'
          ? decision.reason
          : decision.kind === 'reconcile'
            ? 'unknown-outcome-unsettled-before-maximum-age'
            : 'no channel available before the maximum age';
      const ended = await scripts.finishNotification({ id: data.id, fromStep: step, status, reason, now: now(), skips: skipsToRecord });
      if (ended.code === 'ended') {
        metrics.notifications.inc({ priority: data.priority, outcome: status });
        metrics.cascadeDepth.observe({ outcome: status }, Number(fields.calls ?? 0));
        await publish(status === 'unconfirmed' ? 'notification.unconfirmed' : 'notification.failed', data, fields.tenant);
      }
      return;
    }
    // While every channel is unavailable, the waiting job re-asks the first breaker-open one.
    const channel =
      decision.kind === 'wait'
        ? // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it (plan[0] may be undefined); the rule misreads this `??` operand
          (decision.skipped.find((s) => s.reason === 'breaker-open')?.channel ?? (plan[0] as Channel))
        : decision.channel;
    // Waiting out an unavailable channel (every channel open, or an unknown outcome that must
    // be reconciled on a channel that is open or refusing connections) re-checks at an
    // interval, never in a loop.
    const delayMs = waiting ? config.unavailableRetryMs : delayAfter(after);
    const kind = decision.kind === 'reconcile' ? 'reconcile' : 'send';
    // A reconciliation goes back to the provider that made the unknown call: only it holds the key.
    const reconcileWith = kind === 'reconcile' ? recordAttempts(fields).findLast((a) => a.channel === channel && a.outcome === 'unknown')?.provider : undefined;
    const { provider: _previous, ...base } = data;
    const next: StepJobData = { ...base, step: step + 1, channel, ...(reconcileWith !== undefined ? { provider: reconcileWith } : {}) };
    const scheduled = await scripts.scheduleStep({
      id: data.id,
      fromStep: step,
      channel,
      kind,
      skips: skipsToRecord,
      status: delayMs > 0 ? 'retry-scheduled' : 'routing',
    });
    if (scheduled.code === 'scheduled') {
      coalesce();
      await queues.enqueueLaterStep(data.priority, next, delayMs);
    }
  }

  function delayAfter(after: After): number {
    switch (after) {
      case 'transient':
        return config.transientDelayMs;
      // A call that never left is a channel outage like a transient answer (BI9's delay).
      case 'not-sent':
        return config.transientDelayMs;
      case 'permanent':
        return config.permanentDelayMs;
      case 'unknown':
        return config.reconcileDelayMs;
      default:
        return 0;
    }
  }

  /**
   * A batch job on a rate-limited lane: its items become single step jobs (derived ids), so
   * BullMQ's limiter, which counts jobs, counts each step.
   */
  async function splitBatch(steps: StepJobData[]): Promise<void> {
    await Promise.all(steps.map((step) => queues.enqueueStep(step.priority, step)));
  }

  return { process, resume, splitBatch };
}

function parseSkips(raw: string | undefined): Skip[] {
  if (!raw) return [];
  const value: unknown = JSON.parse(raw);
  return Array.isArray(value) ? (value as Skip[]) : [];
}

export type StepProcessor = ReturnType<typeof createStepProcessor>;
