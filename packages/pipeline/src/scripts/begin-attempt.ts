import { idempotencyBucketPrefix, idempotencyMetaKey, pendingIntakeKey, type Channel } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { attemptKeys } from './attempt-keys';
import { decodeReply, text } from './script-reply';

/** begin-attempt-4.lua's return codes (its header lists the same). */
export const BEGIN_ATTEMPT_CODES = {
  proceed: 0,
  terminal: 1,
  stale: 2,
  crashed: 3,
  missing: 4,
  suppressed: 5,
  budget: 6,
  busy: 7,
  archived: 8,
  expired: 9,
} as const;

export interface BeginAttemptArgs {
  id: string;
  /** Recipient hash: with the channel, names the suppression key. */
  rh: string;
  step: number;
  channel: Channel;
  now: number;
  budget: number;
  /** The provider making the call (recorded on the attempt, so a reconciliation goes back to it). */
  provider?: string;
  /**
   * The BullMQ job running the step, and how long an attempt opened by another job counts as
   * still in flight (lockDuration / 2): a younger one answers `busy`, not `crashed`. Absent: no lease.
   */
  jobId?: string;
  leaseMs?: number;
}

/** `tenant` on proceed: the record's tenant, for the webhook hook's publish (absent on a record without one). */
export type BeginAttemptReply =
  { code: 'proceed'; contentJson: string; addressesJson: string; tenant?: string } | { code: Exclude<keyof typeof BEGIN_ATTEMPT_CODES, 'proceed'> };

/** `partition`: the id's partition (set by loadScripts). */
export async function callBeginAttempt(command: LuaCommand, a: BeginAttemptArgs, partition = 0): Promise<BeginAttemptReply> {
  const reply = await command(
    ...attemptKeys(a, partition),
    pendingIntakeKey(partition),
    idempotencyMetaKey(partition),
    a.step,
    a.channel,
    a.now,
    a.budget,
    a.id,
    a.provider ?? '',
    a.leaseMs ?? 0,
    a.jobId ?? '',
    idempotencyBucketPrefix(partition),
  );
  const { code, detail } = decodeReply('begin-attempt-4', BEGIN_ATTEMPT_CODES, reply);
  if (code !== 'proceed') return { code };
  const tenant = text(detail[2]);
  return { code, contentJson: text(detail[0]), addressesJson: text(detail[1]), ...(tenant ? { tenant } : {}) };
}
