import { notificationKey, type Channel, type WaitRecord } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply } from './script-reply';

/** schedule-step-1.lua's return codes (its header lists the same). */
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
}

export type ScheduleStepReply = { code: keyof typeof SCHEDULE_STEP_CODES };

/** `partition`: the id's partition (set by loadScripts). */
export async function callScheduleStep(command: LuaCommand, a: ScheduleStepArgs, partition = 0): Promise<ScheduleStepReply> {
  const reply = await command(
    notificationKey(a.id, partition),
    a.fromStep,
    a.fromStep + 1,
    a.channel,
    a.kind,
    JSON.stringify(a.skips),
    a.status,
    a.wait ? JSON.stringify(a.wait) : '',
  );
  return { code: decodeReply('schedule-step-1', SCHEDULE_STEP_CODES, reply).code };
}
