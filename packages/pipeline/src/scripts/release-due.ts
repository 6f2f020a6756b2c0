import { dueIndexKey, notificationKey, pendingIntakeKey, pendingUrgentKey, type Channel, type Priority } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { jobExtrasFrom, type StepJobExtras } from '../step-job-extras';
import { decodeReply, text } from './script-reply';

/** release-due-3.lua's return codes (its header lists the same). */
export const RELEASE_DUE_CODES = { released: 0 } as const;

export interface ReleasedNotification {
  id: string;
  channel: Channel;
  priority: Priority;
  rh: string;
  /** When it was due (ms). */
  sendAt: number;
  /** What its first step job carries beside the pointer, from the record. */
  extras: StepJobExtras;
}

export interface ReleaseDueReply {
  code: 'released';
  /** Due index entries taken (released, or dropped because their record was no longer scheduled). */
  handled: number;
  /** Redis's clock at the release (ms). */
  now: number;
  released: ReleasedNotification[];
}

/** One batch of partition `partition`'s due notifications, moved to the normal path. */
export async function callReleaseDue(command: LuaCommand, batch: number, partition: number): Promise<ReleaseDueReply> {
  const reply = await command(dueIndexKey(partition), pendingIntakeKey(partition), pendingUrgentKey(partition), batch, notificationKey('', partition));
  const { code, detail } = decodeReply('release-due-3', RELEASE_DUE_CODES, reply);
  const released: ReleasedNotification[] = [];
  for (let i = 2; i + 8 < detail.length; i += 9) {
    released.push({
      id: text(detail[i]),
      channel: text(detail[i + 1]) as Channel,
      priority: text(detail[i + 2]) as Priority,
      rh: text(detail[i + 3]),
      sendAt: Number(detail[i + 4]),
      extras: jobExtrasFrom(detail.slice(i + 5, i + 9).map((v) => text(v))),
    });
  }
  return { code, handled: Number(detail[0]), now: Number(detail[1]), released };
}
