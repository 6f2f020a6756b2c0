import type { Logger } from 'pino';
import type { Channel, RenderedMessage } from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import type { ProviderAdapter, SendResult } from '@notify/providers';
import type { RedisClient } from '@notify/runtime';
import type { CascadeConfig } from '../cascade-config';
import type { ChannelGate, GateTicket } from '../channel-gate';
import type { ChannelQueues } from '../channel-queues';
import type { ConsentSettings } from '../consent/consent-settings';
import type { OptOutStore } from '../consent/opt-out-store';
import type { StepJobData } from '../job-data';
import type { Scripts } from '../scripts';
import type { WriteCoalescer } from '../write-coalescer';
import type { RecordHandle } from './record-handle';
import type { StepEvents } from './step-events';
import type { ProviderLookup, StepRun, UnknownOutcomePolicy } from './step-types';

/** The step path's dependencies that every caller gives (createStepProcessor's deps start with them). */
export interface StepCoreServices {
  redis: RedisClient;
  scripts: Scripts;
  queues: ChannelQueues;
  /** The providers the gate routes to, by name (a ProviderDirectory). */
  providers: ProviderLookup;
  gate: ChannelGate;
  metrics: PipelineMetrics;
  logger: Logger;
  config: CascadeConfig;
}

/** What every stage may use: the processor's dependencies with their defaults filled in. */
export interface StepServices extends StepCoreServices {
  addressRouting?: { channels: ReadonlySet<Channel>; filterFor(channel: Channel, storedAddress: string): ((provider: string) => boolean) | undefined };
  unknownPolicy: (channel: Channel) => UnknownOutcomePolicy;
  now: () => number;
  coalesce: WriteCoalescer;
  events: StepEvents;
  receiptIndexTtlSeconds: number;
  /** QUIET_HOURS_SPREAD_SECONDS in ms: releases at the end of quiet hours spread over this much. */
  quietHoursSpreadMs: number;
  /** Categories and opt-outs (the opted-out stage, the unsubscribe header); absent: none apply. */
  consent?: StepConsent;
}

/** What the step path needs of consent: the settings cache, the opt-outs, and the one-click link of an e-mail. */
export interface StepConsent {
  settings: ConsentSettings;
  optOuts: OptOutStore;
  /** The List-Unsubscribe URL of an e-mail of a non-required category; absent: none is added. */
  unsubscribeUrl?: (to: { tenant: string; rh: string; category: string; channel: Channel }) => string;
}

/** What begin-attempt read from the record for the call. */
export interface BegunAttempt {
  contentJson: string;
  addressesJson: string;
  tenant?: string;
}

/** The call a rendered step makes. */
export interface PreparedCall {
  adapter: ProviderAdapter;
  to: string;
  message: RenderedMessage;
}

/** One step job as it passes through the stages; each stage adds what the next ones need. */
export interface StepContext {
  readonly data: StepJobData;
  readonly run: StepRun;
  readonly record: RecordHandle;
  /** The breaker's permission for the call, until it is released. */
  ticket?: GateTicket;
  begun?: BegunAttempt;
  call?: PreparedCall;
  result?: SendResult;
  /** Whether finish-attempt recorded the result (false: another run had moved the record on). */
  recorded?: boolean;
}

/** Reports how the call ended (or that it never happened) to the breaker, once. */
export async function releaseTicket(ctx: StepContext, outcome: Parameters<GateTicket['release']>[0]): Promise<void> {
  const ticket = ctx.ticket;
  if (!ticket) return;
  ctx.ticket = undefined;
  await ticket.release(outcome);
}

/** A value an earlier stage must have set (a stage list out of order is a programming error). */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`step stage ran before ${what} was set`);
  return value;
}
