import {
  parseSuppressionIndexMember,
  parseSuppressionValue,
  suppressionIndexKey,
  suppressionKey,
  validationError,
  type Channel,
  type SuppressionReason,
} from '@notify/core';
import type { RedisClient } from '@notify/runtime';

/** One suppression as a list shows it: the recipient by its id and hash, never an address. */
export interface SuppressionView {
  /** The id the tenant gave (absent for an entry that does not hold it). */
  recipientId?: string;
  recipientHash: string;
  channel: Channel;
  reason: SuppressionReason;
  /** ms since epoch. */
  suppressedAt: number;
  expiresAt: number;
}

export interface SuppressionFilter {
  channel?: Channel;
  limit: number;
  /** Opaque, a previous page's nextCursor. */
  cursor?: string;
}

export interface SuppressionPage {
  items: SuppressionView[];
  nextCursor?: string;
}

/** Where a page ends: partition, then (expiry, member) inside it, the index's own order. */
interface Position {
  partition: number;
  score: number;
  member: string;
}

const encodeCursor = (at: Position) => Buffer.from(JSON.stringify([at.partition, at.score, at.member])).toString('base64url');

function decodeCursor(cursor: string, partitions: number): Position {
  const invalid = () => validationError([{ field: 'cursor', reason: 'must be a nextCursor of a previous page' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [partition, score, member] = parsed as unknown[];
  if (!Number.isInteger(partition) || (partition as number) < 0 || (partition as number) >= partitions) throw invalid();
  if (typeof score !== 'number' || !Number.isFinite(score) || typeof member !== 'string' || !parseSuppressionIndexMember(member)) throw invalid();
  return { partition: partition as number, score, member };
}

/** Past `after` in the index's order (score, then member bytes; members are ASCII). */
const isAfter = (score: number, member: string, after: Position | undefined) =>
  after === undefined || score > after.score || (score === after.score && member > after.member);

/**
 * One page of a tenant's suppressions over every partition, in the order partition, expiry,
 * member: the cursor names the last entry shown, so entries that expire or are lifted between
 * pages shift nothing. Per partition read: expired entries trimmed (ZREMRANGEBYSCORE), a batch of
 * the index (ZRANGEBYSCORE) and the keys' values (MGET), all on that partition's slot. An entry
 * whose key is gone (lifted by a profile change) is dropped from the index as it is met.
 */
export async function listSuppressions(
  redis: RedisClient,
  partitions: number,
  tenant: string,
  filter: SuppressionFilter,
  now: number,
): Promise<SuppressionPage> {
  const limit = Math.max(1, Math.floor(filter.limit));
  const start = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, partitions);
  const found: { view: SuppressionView; at: Position }[] = [];
  const batch = limit + 1;
  for (let p = start?.partition ?? 0; p < partitions && found.length <= limit; p += 1) {
    const index = suppressionIndexKey(tenant, p);
    await redis.zremrangebyscore(index, '-inf', now);
    const after = p === start?.partition ? start : undefined;
    for (let offset = 0; found.length <= limit;) {
      const flat = await redis.zrangebyscore(index, after ? after.score : '-inf', '+inf', 'WITHSCORES', 'LIMIT', offset, batch);
      const entries: { member: string; score: number; rh: string; channel: Channel }[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const member = flat[i] as string;
        const score = Number(flat[i + 1]);
        const parts = parseSuppressionIndexMember(member);
        if (!parts || !isAfter(score, member, after) || (filter.channel !== undefined && parts.channel !== filter.channel)) continue;
        entries.push({ member, score, ...parts });
      }
      if (entries.length > 0) {
        const values = await redis.mget(...entries.map((e) => suppressionKey(e.rh, e.channel, p)));
        const gone: string[] = [];
        entries.forEach((e, i) => {
          const value = parseSuppressionValue(values[i] ?? null);
          if (!value) {
            if ((values[i] ?? null) === null) gone.push(e.member);
            return;
          }
          found.push({
            view: {
              ...(value.recipientId !== undefined ? { recipientId: value.recipientId } : {}),
              recipientHash: e.rh,
              channel: e.channel,
              reason: value.reason,
              suppressedAt: value.at,
              expiresAt: e.score,
            },
            at: { partition: p, score: e.score, member: e.member },
          });
        });
        // Removed entries were before the next batch: the offset moves back by as many.
        if (gone.length > 0) offset -= await redis.zrem(index, ...gone);
      }
      if (flat.length < 2 * batch) break;
      offset += batch;
    }
  }
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map((f) => f.view), ...(found.length > limit && last ? { nextCursor: encodeCursor(last.at) } : {}) };
}
