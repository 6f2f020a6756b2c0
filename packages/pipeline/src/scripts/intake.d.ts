import { type Channel, type NotificationStatus, type Priority } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
/** intake-2.lua's return codes (its header lists the same). */
export declare const INTAKE_CODES: {
    readonly created: 0;
    readonly duplicate: 1;
    readonly conflict: 2;
};
export interface IntakeArgs {
    id: string;
    fingerprint: string;
    tenant: string;
    eventId: string;
    recipientId: string;
    rh: string;
    priority: Priority;
    plan: readonly Channel[];
    firstChannel: Channel;
    content: unknown;
    addresses: Partial<Record<Channel, string>>;
    /** sha256 per channel of the addresses: what the record keeps once it is terminal. */
    addressHashes: Partial<Record<Channel, string>>;
    now: number;
    recordTtlSeconds: number;
    skips: readonly unknown[];
}
export type IntakeReply = {
    code: 'created';
}
/** `firstChannel` is set while the record is still 'accepted' (its first job may be missing). */
 | {
    code: 'duplicate';
    status: NotificationStatus;
    firstChannel: Channel | undefined;
} | {
    code: 'conflict';
};
export declare function callIntake(command: LuaCommand, a: IntakeArgs): Promise<IntakeReply>;
