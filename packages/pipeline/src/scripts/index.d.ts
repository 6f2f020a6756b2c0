import type { Redis } from 'ioredis';
import { type BeginAttemptArgs, type BeginAttemptReply } from './begin-attempt';
import { type FinishAttemptArgs, type FinishAttemptReply } from './finish-attempt';
import { type FinishNotificationArgs, type FinishNotificationReply } from './finish-notification';
import { type IntakeArgs, type IntakeReply } from './intake';
import { type ScheduleStepArgs, type ScheduleStepReply } from './schedule-step';
export * from './begin-attempt';
export * from './finish-attempt';
export * from './finish-notification';
export * from './intake';
export * from './schedule-step';
export * from './script-reply';
/** The pipeline's Lua scripts (src/lua), one state change each; see the package README for the convention. */
export declare const PIPELINE_SCRIPTS: readonly ["intake-2", "begin-attempt-3", "finish-attempt-2", "schedule-step-1", "finish-notification-1"];
export declare const PIPELINE_LUA_DIR: string;
/** One typed method per script: a named argument object in, a decoded discriminated reply out. */
export interface Scripts {
    intake(args: IntakeArgs): Promise<IntakeReply>;
    beginAttempt(args: BeginAttemptArgs): Promise<BeginAttemptReply>;
    finishAttempt(args: FinishAttemptArgs): Promise<FinishAttemptReply>;
    scheduleStep(args: ScheduleStepArgs): Promise<ScheduleStepReply>;
    finishNotification(args: FinishNotificationArgs): Promise<FinishNotificationReply>;
}
/** Registers the scripts on a connection (EVALSHA under the hood) and returns their typed methods. */
export declare function loadScripts(redis: Redis): Scripts;
