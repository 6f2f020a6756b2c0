import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  isTerminal, nextCascadeStep, notificationKey, pendingIntakeKey, providerIdempotencyKey, renderForChannel, suppressionKey,
  type Addresses, type AttemptOutcome, type Channel, type NotificationContent, type NotificationStatus, type SkipReason,
} from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import type { CascadeConfig } from './cascade-config';
import type { ChannelGate } from './channel-gate';
import type { ChannelQueues } from './channel-queues';
import type { StepJobData } from './job-data';
import { recordAttempts, type RecordFields } from './notification-record';
import type { ProviderClient } from './provider-client';
import type { Scripts } from './scripts';

export interface StepProcessorDeps {
  redis: Redis;
  scripts: Scripts;
  queues: ChannelQueues;
  provider: ProviderClient;
  gate: ChannelGate;
  metrics: PipelineMetrics;
  logger: Logger;
  config: CascadeConfig;
  now?: () => number;
}

/** What a step job did; returned as the BullMQ job's result (visible in bull-board). */
export type StepResult =
  | { action: 'called'; outcome: AttemptOutcome; channel: Channel }
  | { action: 'skipped'; reason: SkipReason; channel: Channel }
  | { action: 'ignored'; reason: 'terminal' | 'missing' | 'stale' }
  | { action: 'resumed' };

interface Skip { channel: Channel; reason: SkipReason; at: number }

/**
 * Runs one step of one notification: at most one external call, then the decision of what
 * comes next. Every decision is taken against the record in Redis through one Lua script, so
 * BullMQ's at-least-once re-runs (stalled jobs, retries, a SIGKILLed worker) repeat nothing:
 * a re-run finds the step finished, in flight, or moved on, and only completes what is missing.
 */
export function createStepProcessor(deps: StepProcessorDeps) {
  const { redis, scripts, queues, provider, gate, metrics, config } = deps;
  const now = deps.now ?? Date.now;

  async function process(data: StepJobData): Promise<StepResult> {
    const key = notificationKey(data.id);
    const ticket = await gate.acquire(data.channel);
    if (!ticket) {
      metrics.skips.inc({ channel: data.channel, reason: 'breaker-open' });
      await advance(data, [{ channel: data.channel, reason: 'breaker-open', at: now() }], 'skip');
      return { action: 'skipped', reason: 'breaker-open', channel: data.channel };
    }
    const begin = await scripts.beginAttempt(
      [key, suppressionKey(data.rh, data.channel), pendingIntakeKey()], data.step, data.channel, now(), config.budget, data.id,
    ).catch(async (error: unknown) => {
      await ticket.release('not-called');
      throw error;
    });
    const code = Number(begin[0]);
    if (code !== 0) await ticket.release('not-called');
    switch (code) {
      case 0:
        return call(data, begin.slice(1) as string[], ticket);
      case 1:
        metrics.duplicatesBlocked.inc({ stage: 'worker' });
        return { action: 'ignored', reason: 'terminal' };
      case 4:
        deps.logger.warn({ notificationId: data.id, step: data.step }, 'step job for a missing record (expired?)');
        return { action: 'ignored', reason: 'missing' };
      case 5:
        metrics.skips.inc({ channel: data.channel, reason: 'suppressed' });
        await advance(data, [{ channel: data.channel, reason: 'suppressed', at: now() }], 'skip');
        return { action: 'skipped', reason: 'suppressed', channel: data.channel };
      default:
        // 2 stale, 3 the worker died mid-call (now marked unknown), 6 budget: finish what is missing.
        if (code === 2) metrics.duplicatesBlocked.inc({ stage: 'worker' });
        await resume(data);
        return code === 2 ? { action: 'ignored', reason: 'stale' } : { action: 'resumed' };
    }
  }

  async function call(data: StepJobData, fields: string[], ticket: { release(o: AttemptOutcome | 'not-called'): Promise<void> }): Promise<StepResult> {
    const [contentJson, addressesJson] = fields as [string, string];
    const content = JSON.parse(contentJson) as NotificationContent;
    const addresses = JSON.parse(addressesJson) as Addresses;
    const to = addresses[data.channel] as string;
    const message = renderForChannel(data.channel, content, { smsMaxSegments: config.smsMaxSegments });

    metrics.inFlight.inc({ channel: data.channel });
    let result;
    try {
      result = await provider.send(data.channel, to, message, providerIdempotencyKey(data.id));
    } finally {
      metrics.inFlight.dec({ channel: data.channel });
    }
    metrics.attempts.inc({ channel: data.channel, outcome: result.outcome });
    metrics.callDuration.observe({ channel: data.channel, outcome: result.outcome }, result.durationMs / 1000);

    const finished = await scripts.finishAttempt(
      [notificationKey(data.id), suppressionKey(data.rh, data.channel)], data.step, result.outcome,
      result.errorClass ?? '', result.message ?? '', now(), result.durationMs, config.suppressionTtlSeconds,
    );
    await ticket.release(result.outcome);
    if (Number(finished[0]) === 0 && result.outcome === 'delivered') {
      const acceptedAt = Number(finished[1]);
      metrics.notifications.inc({ priority: data.priority, outcome: 'delivered' });
      metrics.deliveryLatency.observe({ priority: data.priority }, Math.max(0, now() - acceptedAt) / 1000);
      metrics.cascadeDepth.observe({ outcome: 'delivered' }, Number(finished[2] ?? 1));
      return { action: 'called', outcome: result.outcome, channel: data.channel };
    }
    if (result.outcome !== 'delivered') await advance(data, [], result.outcome);
    return { action: 'called', outcome: result.outcome, channel: data.channel };
  }

  /** A re-run found the step already handled: compute the next move from the record alone. */
  async function resume(data: StepJobData): Promise<void> {
    const fields = (await redis.hgetall(notificationKey(data.id))) as RecordFields;
    if (!fields.status || isTerminal(fields.status as NotificationStatus)) return;
    const step = Number(fields.step);
    const current: StepJobData = { ...data, step, channel: fields.chan as Channel };
    const attempt = recordAttempts(fields).find((a) => a.step === step);
    if (attempt?.outcome !== undefined) {
      await advance(current, [], attempt.outcome, fields);
    } else {
      // The current step has not run (or is running elsewhere): make sure its job exists.
      await queues.enqueueStep(data.priority, current);
    }
  }

  /**
   * Chooses and schedules the step after `data.step`: the pure cascade rule on the record's
   * history, the open breakers and the channels skipped in this notification.
   */
  async function advance(data: StepJobData, newSkips: Skip[], after: AttemptOutcome | 'skip', known?: RecordFields): Promise<void> {
    const fields = known ?? ((await redis.hgetall(notificationKey(data.id))) as RecordFields);
    if (!fields.status) return;
    const plan = JSON.parse(fields.plan ?? '[]') as Channel[];
    const attempts = recordAttempts(fields).map((a) => ({ channel: a.channel, outcome: a.outcome }));
    const previousSkips = parseSkips(fields.skips);
    const suppressed = new Set([...previousSkips, ...newSkips].filter((s) => s.reason === 'suppressed').map((s) => s.channel));
    const open = new Set(await gate.openChannels());
    for (const s of newSkips) if (s.reason === 'breaker-open') open.add(s.channel);
    const unavailable = (c: Channel): SkipReason | undefined =>
      suppressed.has(c) ? 'suppressed' : open.has(c) ? 'breaker-open' : undefined;

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
    if (decision.kind === 'give-up' || (decision.kind === 'wait' && now() - acceptedAt > config.maxAgeMs)) {
      const reason = decision.kind === 'wait' ? 'no channel available before the maximum age' : decision.reason;
      const ended = await scripts.finishNotification(notificationKey(data.id), step, reason, now(), JSON.stringify(skipsToRecord));
      if (ended === 0) {
        metrics.notifications.inc({ priority: data.priority, outcome: 'failed' });
        metrics.cascadeDepth.observe({ outcome: 'failed' }, Number(fields.calls ?? 0));
      }
      return;
    }
    // While every channel is unavailable, the waiting job re-asks the first breaker-open one.
    const channel = decision.kind === 'wait'
      ? (decision.skipped.find((s) => s.reason === 'breaker-open')?.channel ?? (plan[0] as Channel))
      : decision.channel;
    // Waiting out an unavailable channel (every channel open, or an unknown outcome that must
    // be reconciled on a channel whose breaker is open) re-checks at an interval, never in a loop.
    const waiting = decision.kind === 'wait' || (decision.kind === 'reconcile' && after === 'skip');
    const delayMs = waiting ? config.unavailableRetryMs : delayAfter(after);
    const kind = decision.kind === 'reconcile' ? 'reconcile' : 'send';
    const next: StepJobData = { ...data, step: step + 1, channel };
    const scheduled = await scripts.scheduleStep(
      notificationKey(data.id), step, step + 1, channel, kind, JSON.stringify(skipsToRecord), delayMs > 0 ? 'retry-scheduled' : 'routing',
    );
    if (scheduled === 0) await queues.enqueueStep(data.priority, next, delayMs);
  }

  function delayAfter(after: AttemptOutcome | 'skip'): number {
    switch (after) {
      case 'transient': return config.transientDelayMs;
      case 'permanent': return config.permanentDelayMs;
      case 'unknown': return config.reconcileDelayMs;
      default: return 0;
    }
  }

  return { process, resume };
}

function parseSkips(raw: string | undefined): Skip[] {
  if (!raw) return [];
  const value: unknown = JSON.parse(raw);
  return Array.isArray(value) ? (value as Skip[]) : [];
}

export type StepProcessor = ReturnType<typeof createStepProcessor>;
