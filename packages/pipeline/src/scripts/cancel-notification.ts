import { archiveQueueKey, dueIndexKey, notificationKey, pendingIntakeKey, pendingUrgentKey, type NotificationStatus, type Priority } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply, text } from './script-reply';

/** cancel-notification-5.lua's return codes (its header lists the same). */
export const CANCEL_NOTIFICATION_CODES = { canceled: 0, already: 1, refused: 2, missing: 4 } as const;

export interface CancelNotificationArgs {
  id: string;
  /** Only the tenant's own notification is canceled; another's reads as missing. */
  tenant: string;
  now: number;
  reason: string;
}

/** `refused.state`: `sending` (a call in flight or unsettled) or the terminal status it has. */
export type CancelNotificationReply =
  { code: 'canceled'; priority: Priority } | { code: 'already' | 'missing' } | { code: 'refused'; state: NotificationStatus };

/** `archive`: history is on (the canceled record goes on the archive queue); `partition`: the id's (both set by loadScripts). */
export async function callCancelNotification(
  command: LuaCommand,
  a: CancelNotificationArgs,
  archive: boolean,
  partition = 0,
): Promise<CancelNotificationReply> {
  const reply = await command(
    notificationKey(a.id, partition),
    archiveQueueKey(partition),
    pendingIntakeKey(partition),
    dueIndexKey(partition),
    pendingUrgentKey(partition),
    a.tenant,
    a.now,
    a.reason,
    archive ? 1 : 0,
    a.id,
  );
  const { code, detail } = decodeReply('cancel-notification-5', CANCEL_NOTIFICATION_CODES, reply);
  if (code === 'refused') return { code, state: text(detail[0]) as NotificationStatus };
  if (code === 'canceled') return { code, priority: text(detail[0]) as Priority };
  return { code };
}
