import { join } from 'node:path';
import { partitionOfId, partitionTag } from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import { defineLuaCommands, type LuaCommand } from '../lua-commands';
import type { WriteCoalescer } from '../write-coalescer';
import { callClaimArchive, type ClaimArchiveArgs, type ClaimArchiveReply } from './claim-archive';
import { callCompactArchived, type CompactArchivedArgs, type CompactArchivedReply } from './compact-archived';
import { callReleaseArchive, type ReleaseArchiveArgs, type ReleaseArchiveReply } from './release-archive';
import { callBeginAttempt, type BeginAttemptArgs, type BeginAttemptReply } from './begin-attempt';
import { callCancelNotification, type CancelNotificationArgs, type CancelNotificationReply } from './cancel-notification';
import { callFinishAttempt, type FinishAttemptArgs, type FinishAttemptReply } from './finish-attempt';
import { callFinishNotification, type FinishNotificationArgs, type FinishNotificationReply } from './finish-notification';
import { callIntake, type IntakeArgs, type IntakeReply } from './intake';
import { callReleaseDue, type ReleaseDueReply } from './release-due';
import { callPark, type ParkCandidate, type ParkOutcome } from './park';
import { callRestoreParked, type RestoreParkedArgs } from './restore-parked';
import { callScheduleStep, type ScheduleStepArgs, type ScheduleStepReply } from './schedule-step';

export * from './begin-attempt';
export * from './cancel-notification';
export * from './claim-archive';
export * from './compact-archived';
export * from './release-archive';
export * from './finish-attempt';
export * from './finish-notification';
export * from './intake';
export * from './schedule-step';
export * from './release-due';
export * from './park';
export * from './restore-parked';
export * from './script-reply';
export { LUA_INCLUDES_DIR, defineLuaCommands, loadLuaSource, type LuaCommand } from '../lua-commands';

/** The pipeline's Lua scripts (src/lua), one state change each; see the package README for the convention. */
export const PIPELINE_SCRIPTS = [
  'intake-9',
  'begin-attempt-4',
  'finish-attempt-4',
  'schedule-step-5',
  'finish-notification-3',
  'claim-archive-1',
  'compact-archived-2',
  'release-archive-1',
  'release-due-3',
  'cancel-notification-5',
  'park-1',
  'restore-parked-2',
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
  cancelNotification(args: CancelNotificationArgs): Promise<CancelNotificationReply>;
  /** Restores parked notifications of one partition (all bodies' ids in `partition`). */
  restoreParked(args: RestoreParkedArgs, partition: number): Promise<('restored' | 'not-parked')[]>;
}

export interface ScriptOptions {
  /**
   * History is on: the terminal scripts put each record on the archive queue for the archiver
   * (default off: records stay in Redis with their TTL, as without a history store).
   */
  archive?: boolean;
  /**
   * PARTITIONS (default 1): each call's keys carry the partition of its notification id. The
   * archive scripts (claim, compact, release) work on partition 0 here; an archiver of another
   * partition uses `loadArchiveScripts`.
   */
  partitions?: number;
  /**
   * Called before each notification script call (intake, begin, finish, schedule, finish
   * notification): joins the socket writes of one event-loop turn (write-coalescer.ts). Default none.
   */
  coalesce?: WriteCoalescer;
}

/** Registers the scripts on a connection (EVALSHA under the hood) and returns their typed methods. */
export function loadScripts(redis: RedisClient, options: ScriptOptions = {}): Scripts {
  const defined = defineLuaCommands(redis, PIPELINE_LUA_DIR, 'notify', PIPELINE_SCRIPTS);
  const coalesce = options.coalesce;
  const command: typeof defined =
    coalesce === undefined
      ? defined
      : (name) => {
          const run = defined(name);
          return (...args) => {
            coalesce();
            return run(...args);
          };
        };
  const archive = options.archive === true;
  const partitions = options.partitions ?? 1;
  const of = (id: string) => partitionOfId(id, partitions);
  const intake = command('intake-9');
  const beginAttempt = command('begin-attempt-4');
  const finishAttempt = command('finish-attempt-4');
  const scheduleStep = command('schedule-step-5');
  const finishNotification = command('finish-notification-3');
  const cancelNotification = command('cancel-notification-5');
  return {
    intake: (args) => callIntake(intake, args, of(args.id)),
    beginAttempt: (args) => callBeginAttempt(beginAttempt, args, of(args.id)),
    finishAttempt: (args) => callFinishAttempt(finishAttempt, args, archive, of(args.id)),
    scheduleStep: (args) => callScheduleStep(scheduleStep, args, of(args.id)),
    finishNotification: (args) => callFinishNotification(finishNotification, args, archive, of(args.id)),
    cancelNotification: (args) => callCancelNotification(cancelNotification, args, archive, of(args.id)),
    restoreParked: (args, partition) => callRestoreParked(command('restore-parked-2'), args, partition),
    ...loadArchiveScripts(redis, 0),
  };
}

/** The archive scripts of one partition: its archive queue, its records and idempotency entries (one Archiver per partition). */
export function loadArchiveScripts(redis: RedisClient, partition: number): Pick<Scripts, 'claimArchive' | 'compactArchived' | 'releaseArchive'> {
  const defined = defineLuaCommands(redis, PIPELINE_LUA_DIR, 'notify', PIPELINE_SCRIPTS);
  const command = (name: (typeof PIPELINE_SCRIPTS)[number]) => inPartition(defined(name), partition);
  return {
    claimArchive: (args) => callClaimArchive(command('claim-archive-1'), args),
    compactArchived: (args) => callCompactArchived(command('compact-archived-2'), args),
    releaseArchive: (args) => callReleaseArchive(command('release-archive-1'), args),
  };
}

/**
 * A command whose key arguments (and key prefixes passed as arguments) are moved from partition
 * 0's tag to partition `partition`'s: the archive scripts' callers build partition 0's keys
 * (`{notify}:...`), and every argument that starts with that tag is re-tagged. Ids and numbers
 * never start with `{`.
 */
export function inPartition(command: LuaCommand, partition: number): LuaCommand {
  if (partition === 0) return command;
  const from = partitionTag(0);
  const to = partitionTag(partition);
  return (...args) => command(...args.map((a) => (typeof a === 'string' && a.startsWith(from) ? to + a.slice(from.length) : a)));
}

/** The releaser's script for one partition: its due index, pending set and records (one Releaser per partition). */
export function loadReleaseScript(redis: RedisClient, partition: number): (batch: number) => Promise<ReleaseDueReply> {
  const command = defineLuaCommands(redis, PIPELINE_LUA_DIR, 'notify', PIPELINE_SCRIPTS)('release-due-3');
  return (batch) => callReleaseDue(command, batch, partition);
}

/** The parker's scripts for one partition: park a batch, restore a batch (one Parker per partition). */
export function loadParkScripts(
  redis: RedisClient,
  partition: number,
): {
  park: (candidates: readonly ParkCandidate[], promoteLeadMs: number) => Promise<ParkOutcome[]>;
  restore: (args: RestoreParkedArgs) => Promise<('restored' | 'not-parked')[]>;
} {
  const command = defineLuaCommands(redis, PIPELINE_LUA_DIR, 'notify', PIPELINE_SCRIPTS);
  return {
    park: (candidates, lead) => callPark(command('park-1'), candidates, lead, partition),
    restore: (args) => callRestoreParked(command('restore-parked-2'), args, partition),
  };
}
