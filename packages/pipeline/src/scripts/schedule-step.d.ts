import { type Channel } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
/** schedule-step-1.lua's return codes (its header lists the same). */
export declare const SCHEDULE_STEP_CODES: {
    readonly scheduled: 0;
    readonly stale: 1;
    readonly missing: 4;
};
export interface ScheduleStepArgs {
    id: string;
    fromStep: number;
    channel: Channel;
    kind: 'send' | 'reconcile';
    skips: readonly unknown[];
    /** What the status shows until the step runs. */
    status: 'routing' | 'retry-scheduled';
}
export type ScheduleStepReply = {
    code: keyof typeof SCHEDULE_STEP_CODES;
};
export declare function callScheduleStep(command: LuaCommand, a: ScheduleStepArgs): Promise<ScheduleStepReply>;
