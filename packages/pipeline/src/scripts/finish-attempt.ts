import {
  archiveQueueKey,
  pendingIntakeKey,
  suppressionIndexMember,
  suppressionIndexPrefix,
  type Channel,
  type RecordedOutcome,
  type SuppressionReason,
} from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { attemptKeys } from './attempt-keys';
import { decodeReply } from './script-reply';

/** finish-attempt-4.lua's return codes (its header lists the same). */
export const FINISH_ATTEMPT_CODES = { recorded: 0, stale: 1, missing: 4 } as const;

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
  /** Why a permanent outcome suppresses (default `bounce`: the address is dead). */
  suppressionReason?: SuppressionReason;
  /** False when the step spent no budget (the request never left, or nothing was called). */
  spent: boolean;
  /** The provider's id of the message (kept on the attempt: receipts find the notification by it). */
  providerMessageId?: string;
}

export type FinishAttemptReply = { code: 'recorded'; acceptedAt: number; calls: number } | { code: 'stale' | 'missing' };

/** `archive`: history is on, so a delivery puts the record on the archive queue; `partition`: the id's (both set by loadScripts). */
export async function callFinishAttempt(command: LuaCommand, a: FinishAttemptArgs, archive: boolean, partition = 0): Promise<FinishAttemptReply> {
  const reply = await command(
    ...attemptKeys(a, partition),
    archiveQueueKey(partition),
    pendingIntakeKey(partition),
    a.step,
    a.outcome,
    a.errorClass ?? '',
    a.message ?? '',
    a.now,
    a.durationMs,
    a.suppressionTtlSeconds,
    a.spent ? 1 : 0,
    archive ? 1 : 0,
    a.id,
    a.providerMessageId ?? '',
    a.suppressionReason ?? 'bounce',
    suppressionIndexPrefix(partition),
    suppressionIndexMember(a.rh, a.channel),
  );
  const { code, detail } = decodeReply('finish-attempt-4', FINISH_ATTEMPT_CODES, reply);
  if (code !== 'recorded') return { code };
  return { code, acceptedAt: Number(detail[0]), calls: Number(detail[1]) };
}
