import { type Channel, type RecordedOutcome } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
/** finish-attempt-2.lua's return codes (its header lists the same). */
export declare const FINISH_ATTEMPT_CODES: {
    readonly recorded: 0;
    readonly stale: 1;
    readonly missing: 4;
};
export interface FinishAttemptArgs {
    id: string;
    rh: string;
    channel: Channel;
    step: number;
    outcome: RecordedOutcome;
    errorClass?: string;
    message?: string;
    now: number;
    durationMs: number;
    /** A permanent outcome suppresses (recipient, channel) this long; 0 turns it off. */
    suppressionTtlSeconds: number;
    /** False when the step spent no budget (the request never left, or nothing was called). */
    spent: boolean;
}
export type FinishAttemptReply = {
    code: 'recorded';
    acceptedAt: number;
    calls: number;
} | {
    code: 'stale' | 'missing';
};
export declare function callFinishAttempt(command: LuaCommand, a: FinishAttemptArgs): Promise<FinishAttemptReply>;
