import { archiveQueueKey, eventIndexPrefix, idempotencyBucketPrefix, idempotencyMetaKey, notificationKey } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply } from './script-reply';

/** compact-archived-2.lua's return codes (its header lists the same). */
export const COMPACT_ARCHIVED_CODES = { compacted: 0 } as const;

/**
 * Bucket bits of a day with no volume measured the day before (the first day): 4,096 buckets,
 * ~24 entries a bucket at 100,000 a day, still listpack-encoded up to ~500,000 a day.
 */
export const DEFAULT_IDEMPOTENCY_BUCKET_BITS = 12;

export interface CompactArchivedArgs {
  /** Ids the history store has committed. */
  ids: readonly string[];
  /** How long the compact entries answer duplicates (at least 24 h). */
  idempotencyWindowSeconds: number;
  firstDayBucketBits?: number;
}

export type CompactArchivedReply = { code: 'compacted'; written: number; dropped: number };

export async function callCompactArchived(command: LuaCommand, a: CompactArchivedArgs): Promise<CompactArchivedReply> {
  const reply = await command(
    archiveQueueKey(),
    idempotencyMetaKey(),
    notificationKey(''),
    idempotencyBucketPrefix(),
    a.idempotencyWindowSeconds,
    a.firstDayBucketBits ?? DEFAULT_IDEMPOTENCY_BUCKET_BITS,
    eventIndexPrefix(),
    ...a.ids,
  );
  const { code, detail } = decodeReply('compact-archived-2', COMPACT_ARCHIVED_CODES, reply);
  return { code, written: Number(detail[0]), dropped: Number(detail[1]) };
}
