import type { LuaCommand } from '../lua-commands';
/** finish-notification-1.lua's return codes (its header lists the same). */
export declare const FINISH_NOTIFICATION_CODES: {
    readonly ended: 0;
    readonly stale: 1;
    readonly missing: 4;
};
export interface FinishNotificationArgs {
    id: string;
    fromStep: number;
    /** `unconfirmed` when an unknown outcome could not be settled (the provider may have delivered). */
    status: 'failed' | 'unconfirmed';
    reason: string;
    now: number;
    skips?: readonly unknown[];
}
export type FinishNotificationReply = {
    code: keyof typeof FINISH_NOTIFICATION_CODES;
};
export declare function callFinishNotification(command: LuaCommand, a: FinishNotificationArgs): Promise<FinishNotificationReply>;
