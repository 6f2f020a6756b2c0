import { partitionOfId, pendingUrgentKey, type Channel } from '@notify/core';
import type { StepJobData } from './job-data';
import { DEFAULT_RECEIPT_INDEX_TTL_SECONDS } from './receipts/keys';
import { recordHandle } from './step/record-handle';
import { resume as resumeStep } from './step/resume';
import type { StepConsent, StepContext, StepCoreServices, StepServices } from './step/step-context';
import { createStepEvents, type StepEvents } from './step/step-events';
import { runStages, STEP_STAGES } from './step/step-stages';
import { subscribeMetrics, subscribeWebhooks, type StepEventPublisher } from './step/step-subscribers';
import type { StepResult, StepRun, UnknownOutcomePolicy } from './step/step-types';
import type { StepStage } from './step/stage';
import { NO_COALESCING, type WriteCoalescer } from './write-coalescer';

/** How far past the end of quiet hours their releases spread, unless configured. */
export const DEFAULT_QUIET_HOURS_SPREAD_MS = 30 * 60_000;

export type { ProviderLookup, StepEventType, StepResult, StepRun, UnknownOutcomePolicy } from './step/step-types';
export type { AttemptFailed, NotificationEnded, StepEvent, StepEvents, Subscription } from './step/step-events';
export type { StageVerdict, StepStage } from './step/stage';
export type { StepContext, StepServices } from './step/step-context';
export type { StepEventPublisher } from './step/step-subscribers';
export { STEP_STAGES } from './step/step-stages';

export interface StepProcessorDeps extends StepCoreServices {
  /**
   * Channels whose providers differ in the addresses they carry, and for such a channel and an
   * address, the providers that can carry it (undefined: none can, the first provider answers).
   */
  addressRouting?: StepServices['addressRouting'];
  /** Per channel; default `resend` everywhere (what the simulators, which honour keys, never need). */
  unknownOutcomePolicy?: (channel: Channel) => UnknownOutcomePolicy;
  now?: () => number;
  /**
   * Tenant webhooks (packages/webhooks): told where a notification ends or an attempt failed
   * (a subscriber of the terminal hook). Never fails a step. `tenant` when the processor has
   * read it anyway (begin-attempt, the record of a cascade): the hook then reads no record.
   */
  events?: StepEventPublisher;
  /** RECEIPT_INDEX_TTL_SECONDS: how long a provider message id finds its notification (docs/provider-events.md); default 30 days. */
  receiptIndexTtlSeconds?: number;
  /** Categories and opt-outs (docs/preferences.md): the opted-out stage and the e-mail's one-click unsubscribe. */
  consent?: StepConsent;
  /** QUIET_HOURS_SPREAD_SECONDS in ms (default 30 minutes): how far past the end of quiet hours their releases spread. */
  quietHoursSpreadMs?: number;
  /**
   * Called before the processor's own Redis commands (the webhook hook's reads, the record reads
   * of a cascade, step job adds): joins the socket writes of one event-loop turn (write-coalescer.ts).
   * The scripts take theirs through loadScripts. Default none.
   */
  coalesce?: WriteCoalescer;
  /** The step path (default STEP_STAGES, step/step-stages.ts). */
  stages?: readonly StepStage[];
}

/**
 * Runs one step of one notification: at most one external call, then the decision of what
 * comes next, as the stages of step/step-stages.ts. Every decision is taken against the record
 * in Redis through one Lua script, so BullMQ's at-least-once re-runs (stalled jobs, retries, a
 * SIGKILLed worker) repeat nothing: a re-run finds the step finished, in flight, or moved on,
 * and only completes what is missing. `events`: the terminal hook ("notification ended",
 * "attempt failed"); the metrics and the webhook publisher are its first subscribers.
 */
export function createStepProcessor(deps: StepProcessorDeps) {
  const coalesce = deps.coalesce ?? NO_COALESCING;
  const events: StepEvents = createStepEvents(deps.logger);
  subscribeMetrics(events, deps.metrics);
  if (deps.events) subscribeWebhooks(events, deps.events, coalesce, deps.logger);
  const services: StepServices = {
    redis: deps.redis,
    scripts: deps.scripts,
    queues: deps.queues,
    providers: deps.providers,
    gate: deps.gate,
    metrics: deps.metrics,
    logger: deps.logger,
    config: deps.config,
    ...(deps.addressRouting ? { addressRouting: deps.addressRouting } : {}),
    unknownPolicy: deps.unknownOutcomePolicy ?? (() => 'resend'),
    now: deps.now ?? Date.now,
    coalesce,
    events,
    receiptIndexTtlSeconds: deps.receiptIndexTtlSeconds ?? DEFAULT_RECEIPT_INDEX_TTL_SECONDS,
    ...(deps.consent ? { consent: deps.consent } : {}),
    quietHoursSpreadMs: deps.quietHoursSpreadMs ?? DEFAULT_QUIET_HOURS_SPREAD_MS,
  };
  const stages = deps.stages ?? STEP_STAGES;
  const contextOf = (data: StepJobData, run: StepRun): StepContext => ({ data, run, record: recordHandle(data.id, deps.queues.partitions) });

  const process = (data: StepJobData, run: StepRun = {}): Promise<StepResult> => runStages(stages, contextOf(data, run), services);

  /** A re-run found the step already handled: compute the next move from the record alone. */
  const resume = (data: StepJobData): Promise<void> => resumeStep(contextOf(data, {}), services);

  /**
   * A batch job on a rate-limited lane: its items become single step jobs (derived ids), so
   * BullMQ's limiter, which counts jobs, counts each step.
   */
  async function splitBatch(steps: StepJobData[]): Promise<void> {
    await Promise.all(steps.map((step) => deps.queues.enqueueStep(step.priority, step)));
  }

  /**
   * An urgent lane's worker took up these steps: their notifications' first steps leave the
   * urgent backlog that urgent push-back counts (docs/backpressure.md). Never holds up or fails
   * the job: a removal lost (Redis away, a failover) is the intake sweeper's to make.
   */
  function takenUp(steps: StepJobData[]): void {
    const ids = steps.filter((step) => step.step === 1).map((step) => step.id);
    const first = ids[0];
    if (first === undefined) return;
    coalesce();
    deps.redis.zrem(pendingUrgentKey(partitionOfId(first, deps.queues.partitions)), ...ids).catch(() => undefined);
  }

  return { process, resume, splitBatch, takenUp, events };
}

export type StepProcessor = ReturnType<typeof createStepProcessor>;
