import { notificationKey, optOutKey, suppressionKey, type Channel, type WaitRecord } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply, parseFoundSkips, text, type FoundSkip } from './script-reply';

/** schedule-step-5.lua's return codes (its header lists the same). */
export const SCHEDULE_STEP_CODES = { scheduled: 0, stale: 1, missing: 4 } as const;

export interface ScheduleStepArgs {
  id: string;
  fromStep: number;
  channel: Channel;
  kind: 'send' | 'reconcile';
  skips: readonly unknown[];
  /** What the status shows until the step runs. */
  status: 'routing' | 'retry-scheduled';
  /** A wait to append to the record's `waits` (a stage deferred the step). */
  wait?: WaitRecord;
  /** Recipient hash: the suppression and opt-out keys the candidates are checked against. */
  rh?: string;
  /** A send's channels in cascade order (cascadeCandidates): the first open one gets the step. Absent: `channel`, unchecked. */
  candidates?: readonly Channel[];
  /** The category whose opt-outs are read (the tenant has some recorded); absent: none. */
  optOutCategory?: string;
  now?: number;
}

export type ScheduleStepReply = { code: 'scheduled'; channel: Channel; skipped: FoundSkip[] } | { code: 'stale' | 'missing' };

/** `partition`: the id's partition (set by loadScripts). */
export async function callScheduleStep(command: LuaCommand, a: ScheduleStepArgs, partition = 0): Promise<ScheduleStepReply> {
  const checked = a.rh !== undefined && a.candidates !== undefined && a.candidates.length > 0;
  const rh = a.rh ?? '-';
  const reply = await command(
    notificationKey(a.id, partition),
    suppressionKey(rh, 'push', partition),
    suppressionKey(rh, 'sms', partition),
    suppressionKey(rh, 'email', partition),
    optOutKey(rh, partition),
    a.fromStep,
    a.fromStep + 1,
    a.channel,
    a.kind,
    JSON.stringify(a.skips),
    a.status,
    a.wait ? JSON.stringify(a.wait) : '',
    checked ? (a.candidates as readonly Channel[]).join(',') : '',
    checked ? (a.optOutCategory ?? '') : '',
    a.now ?? Date.now(),
  );
  const { code, detail } = decodeReply('schedule-step-5', SCHEDULE_STEP_CODES, reply);
  if (code !== 'scheduled') return { code };
  return { code, channel: (text(detail[0]) || a.channel) as Channel, skipped: parseFoundSkips(text(detail[1])) };
}
