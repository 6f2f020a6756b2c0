import { archiveQueueKey } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply, text } from './script-reply';

/** claim-archive-1.lua's return codes (its header lists the same). */
export const CLAIM_ARCHIVE_CODES = { claimed: 0 } as const;

export interface ClaimArchiveArgs {
  /** Ids claimed at most. */
  batchSize: number;
  /** How long the batch is this archiver's; after that it is due again (a crashed archiver's batch comes back). */
  leaseMs: number;
}

export type ClaimArchiveReply = { code: 'claimed'; ids: string[] };

export async function callClaimArchive(command: LuaCommand, a: ClaimArchiveArgs): Promise<ClaimArchiveReply> {
  const reply = await command(archiveQueueKey(), a.batchSize, a.leaseMs);
  const { code, detail } = decodeReply('claim-archive-1', CLAIM_ARCHIVE_CODES, reply);
  return { code, ids: detail.map(text) };
}
