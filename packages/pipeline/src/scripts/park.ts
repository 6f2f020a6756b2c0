import { dueIndexKey, eventIndexPrefix, notificationKey, parkedStubPrefix } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply, text } from './script-reply';

/** park-1.lua's return codes (its header lists the same). */
export const PARK_CODES = { done: 0 } as const;

/** What park-1 did with one id: parked; kept in Redis (the row written for it is stale); already parked by another parker. */
export type ParkOutcome = 'parked' | 'kept' | 'already';

const OUTCOMES: Record<string, ParkOutcome> = { p: 'parked', k: 'kept', a: 'already' };

export interface ParkCandidate {
  id: string;
  /** The number of fields the record had when read: a record changed since then is not parked. */
  fieldCount: number;
}

/** One batch of partition `partition`'s far-future scheduled notifications replaced by their stubs; outcomes in input order. */
export async function callPark(command: LuaCommand, candidates: readonly ParkCandidate[], promoteLeadMs: number, partition: number): Promise<ParkOutcome[]> {
  const reply = await command(
    dueIndexKey(partition),
    notificationKey('', partition),
    parkedStubPrefix(partition),
    eventIndexPrefix(partition),
    promoteLeadMs,
    ...candidates.flatMap((c) => [c.id, c.fieldCount]),
  );
  const { detail } = decodeReply('park-1', PARK_CODES, reply);
  return [...text(detail[0])].map((c) => OUTCOMES[c] ?? 'kept');
}
