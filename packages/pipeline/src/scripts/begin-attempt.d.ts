import { type Channel } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
/** begin-attempt-3.lua's return codes (its header lists the same). */
export declare const BEGIN_ATTEMPT_CODES: {
    readonly proceed: 0;
    readonly terminal: 1;
    readonly stale: 2;
    readonly crashed: 3;
    readonly missing: 4;
    readonly suppressed: 5;
    readonly budget: 6;
};
export interface BeginAttemptArgs {
    id: string;
    /** Recipient hash: with the channel, names the suppression key. */
    rh: string;
    step: number;
    channel: Channel;
    now: number;
    budget: number;
}
export type BeginAttemptReply = {
    code: 'proceed';
    contentJson: string;
    addressesJson: string;
} | {
    code: Exclude<keyof typeof BEGIN_ATTEMPT_CODES, 'proceed'>;
};
export declare function callBeginAttempt(command: LuaCommand, a: BeginAttemptArgs): Promise<BeginAttemptReply>;
