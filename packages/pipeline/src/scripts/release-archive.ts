import { archiveQueueKey } from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply } from './script-reply';

/** release-archive-1.lua's return codes (its header lists the same). */
export const RELEASE_ARCHIVE_CODES = { released: 0 } as const;

export interface ReleaseArchiveArgs {
  /** Ids this archiver claimed and could not archive. */
  ids: readonly string[];
}

export type ReleaseArchiveReply = { code: 'released'; released: number };

export async function callReleaseArchive(command: LuaCommand, a: ReleaseArchiveArgs): Promise<ReleaseArchiveReply> {
  const reply = await command(archiveQueueKey(), ...a.ids);
  const { code, detail } = decodeReply('release-archive-1', RELEASE_ARCHIVE_CODES, reply);
  return { code, released: Number(detail[0]) };
}
