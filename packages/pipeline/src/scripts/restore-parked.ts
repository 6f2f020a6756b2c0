import { archiveQueueKey, dueIndexKey, eventIndexPrefix, notificationKey, parkedStubPrefix } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply, text } from './script-reply';

/** restore-parked-2.lua's return codes (its header lists the same). */
export const RESTORE_PARKED_CODES = { done: 0 } as const;

/** A parked body as read from PostgreSQL. */
export interface ParkedBody {
  id: string;
  /** The record's expiry (ms since the epoch). */
  expireAt: number;
  fields: Record<string, string>;
}

export type RestoreParkedArgs =
  /** Back to the due index, scheduled (the promoter). */
  | { mode: 'promote'; bodies: readonly ParkedBody[] }
  /** Ended canceled for `tenant` (its own only), onto the archive queue (DELETE of a parked one). */
  | { mode: 'cancel'; bodies: readonly ParkedBody[]; tenant: string; now: number; reason: string };

/** One outcome per body, in order: restored, or not parked (its stub was gone: the body is stale). */
export async function callRestoreParked(command: LuaCommand, a: RestoreParkedArgs, partition: number): Promise<('restored' | 'not-parked')[]> {
  const cancel = a.mode === 'cancel' ? a : undefined;
  const reply = await command(
    dueIndexKey(partition),
    archiveQueueKey(partition),
    notificationKey('', partition),
    parkedStubPrefix(partition),
    eventIndexPrefix(partition),
    a.mode,
    cancel?.tenant ?? '',
    cancel?.now ?? 0,
    cancel?.reason ?? '',
    ...a.bodies.flatMap((b) => [b.id, b.expireAt, JSON.stringify(b.fields)]),
  );
  const { detail } = decodeReply('restore-parked-2', RESTORE_PARKED_CODES, reply);
  return [...text(detail[0])].map((c) => (c === 'r' ? 'restored' : 'not-parked'));
}
