import { archiveQueueKey, notificationKey, pendingIntakeKey } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply } from './script-reply';

/** finish-notification-3.lua's return codes (its header lists the same). */
export const FINISH_NOTIFICATION_CODES = { ended: 0, stale: 1, missing: 4 } as const;

export interface FinishNotificationArgs {
  id: string;
  fromStep: number;
  /**
   * `unconfirmed` when an unknown outcome could not be settled (the provider may have delivered);
   * `expired` when its expiresAt passed before a call could open (begin-attempt-4's `expired`);
   * `opted-out` when every channel closed before a call, one by the recipient's opt-out.
   */
  status: 'failed' | 'unconfirmed' | 'expired' | 'opted-out';
  reason: string;
  now: number;
  skips?: readonly unknown[];
}

export type FinishNotificationReply = { code: keyof typeof FINISH_NOTIFICATION_CODES };

/** `archive`: history is on, so the ended record goes on the archive queue; `partition`: the id's (both set by loadScripts). */
export async function callFinishNotification(
  command: LuaCommand,
  a: FinishNotificationArgs,
  archive: boolean,
  partition = 0,
): Promise<FinishNotificationReply> {
  const reply = await command(
    notificationKey(a.id, partition),
    archiveQueueKey(partition),
    pendingIntakeKey(partition),
    a.fromStep,
    a.status,
    a.reason,
    a.now,
    JSON.stringify(a.skips ?? []),
    archive ? 1 : 0,
    a.id,
  );
  return { code: decodeReply('finish-notification-3', FINISH_NOTIFICATION_CODES, reply).code };
}
