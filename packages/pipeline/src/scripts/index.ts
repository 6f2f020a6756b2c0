import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { defineLuaCommands } from '../lua-commands';
import { callClaimArchive, type ClaimArchiveArgs, type ClaimArchiveReply } from './claim-archive';
import { callCompactArchived, type CompactArchivedArgs, type CompactArchivedReply } from './compact-archived';
import { callReleaseArchive, type ReleaseArchiveArgs, type ReleaseArchiveReply } from './release-archive';
import { callBeginAttempt, type BeginAttemptArgs, type BeginAttemptReply } from './begin-attempt';
import { callFinishAttempt, type FinishAttemptArgs, type FinishAttemptReply } from './finish-attempt';
import { callFinishNotification, type FinishNotificationArgs, type FinishNotificationReply } from './finish-notification';
import { callIntake, type IntakeArgs, type IntakeReply } from './intake';
import { callScheduleStep, type ScheduleStepArgs, type ScheduleStepReply } from './schedule-step';

export * from './begin-attempt';
export * from './claim-archive';
export * from './compact-archived';
export * from './release-archive';
export * from './finish-attempt';
export * from './finish-notification';
export * from './intake';
export * from './schedule-step';
export * from './script-reply';
export { LUA_INCLUDES_DIR, defineLuaCommands, loadLuaSource, type LuaCommand } from '../lua-commands';

/** The pipeline's Lua scripts (src/lua), one state change each; see the package README for the convention. */
export const PIPELINE_SCRIPTS = [
  'intake-3',
  'begin-attempt-3',
  'finish-attempt-3',
  'schedule-step-1',
  'finish-notification-2',
  'claim-archive-1',
  'compact-archived-2',
  'release-archive-1',
] as const;
export const PIPELINE_LUA_DIR = join(__dirname, '..', 'lua');

/** One typed method per script: a named argument object in, a decoded discriminated reply out. */
export interface Scripts {
  intake(args: IntakeArgs): Promise<IntakeReply>;
  beginAttempt(args: BeginAttemptArgs): Promise<BeginAttemptReply>;
  finishAttempt(args: FinishAttemptArgs): Promise<FinishAttemptReply>;
  scheduleStep(args: ScheduleStepArgs): Promise<ScheduleStepReply>;
  finishNotification(args: FinishNotificationArgs): Promise<FinishNotificationReply>;
  claimArchive(args: ClaimArchiveArgs): Promise<ClaimArchiveReply>;
  compactArchived(args: CompactArchivedArgs): Promise<CompactArchivedReply>;
  releaseArchive(args: ReleaseArchiveArgs): Promise<ReleaseArchiveReply>;
}

export interface ScriptOptions {
  /**
   * History is on: the terminal scripts put each record on the archive queue for the archiver
   * (default off: records stay in Redis with their TTL, as without a history store).
   */
  archive?: boolean;
}

/** Registers the scripts on a connection (EVALSHA under the hood) and returns their typed methods. */
export function loadScripts(redis: Redis, options: ScriptOptions = {}): Scripts {
  const command = defineLuaCommands(redis, PIPELINE_LUA_DIR, 'notify', PIPELINE_SCRIPTS);
  const archive = options.archive === true;
  return {
    intake: (args) => callIntake(command('intake-3'), args),
    beginAttempt: (args) => callBeginAttempt(command('begin-attempt-3'), args),
    finishAttempt: (args) => callFinishAttempt(command('finish-attempt-3'), args, archive),
    scheduleStep: (args) => callScheduleStep(command('schedule-step-1'), args),
    finishNotification: (args) => callFinishNotification(command('finish-notification-2'), args, archive),
    claimArchive: (args) => callClaimArchive(command('claim-archive-1'), args),
    compactArchived: (args) => callCompactArchived(command('compact-archived-2'), args),
    releaseArchive: (args) => callReleaseArchive(command('release-archive-1'), args),
  };
}
