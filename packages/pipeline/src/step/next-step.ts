import type { Channel } from '@notify/core';
import type { StepJobData } from '../job-data';
import { recordAttempts, type RecordFields } from '../notification-record';

/** A reconciliation goes back to the provider that made the channel's unknown call: only it holds the key. */
export function reconcileProviderOf(fields: RecordFields, channel: Channel): string | undefined {
  return recordAttempts(fields).findLast((a) => a.channel === channel && a.outcome === 'unknown')?.provider;
}

/** The job data of another step of the same notification (the provider only for a reconciliation). */
export function stepData(data: StepJobData, step: number, channel: Channel, provider: string | undefined): StepJobData {
  const { provider: _previous, ...base } = data;
  return { ...base, step, channel, ...(provider !== undefined ? { provider } : {}) };
}
