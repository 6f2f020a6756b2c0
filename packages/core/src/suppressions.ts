import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CHANNELS, type Channel } from './channels';
import { suppressionIndexPrefix } from './names';
import { recipientIdSchema } from './schemas';

/**
 * Suppressions (docs/preferences.md, "Suppressions"): a (recipient, channel) the platform no
 * longer sends to until the entry expires or is lifted. The key (`suppressionKey`) holds the
 * reason and the time; the tenant's index per partition (`suppressionIndexKey`) lists them.
 * Neither holds an address: the recipient is its hash, and the id the tenant gave in the value.
 */
export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'expired-subscription', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** The longest suppression a tenant may add (10 years): every entry expires, so the index trims itself. */
export const MAX_SUPPRESSION_TTL_SECONDS = 10 * 365 * 86_400;

/** What a suppression key holds (JSON; the scripts write the same fields with cjson). */
export interface SuppressionValue {
  reason: SuppressionReason;
  /** When it was set, ms. */
  at: number;
  /** The recipient id as the tenant gave it. */
  recipientId?: string;
}

/** A suppression key's value, or undefined for one that holds none (written as `1` by older versions). */
export function parseSuppressionValue(raw: string | null): SuppressionValue | undefined {
  if (raw === null || !raw.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<SuppressionValue>;
    if (!(SUPPRESSION_REASONS as readonly unknown[]).includes(value.reason) || typeof value.at !== 'number') return undefined;
    return { reason: value.reason as SuppressionReason, at: value.at, ...(typeof value.recipientId === 'string' ? { recipientId: value.recipientId } : {}) };
  } catch {
    return undefined;
  }
}

/** The tenant's suppression index in one partition: sha1 as Lua's redis.sha1hex computes it from the record's tenant. */
export function suppressionIndexKey(tenant: string, partition = 0): string {
  return suppressionIndexPrefix(partition) + createHash('sha1').update(tenant).digest('hex');
}

/** An index member: the recipient hash and the channel. */
export function suppressionIndexMember(rh: string, channel: Channel): string {
  return `${rh}:${channel}`;
}

const MEMBER = new RegExp(`^([0-9a-f]{32}):(${CHANNELS.join('|')})$`);

/** An index member's parts, or undefined for one this version did not write. */
export function parseSuppressionIndexMember(member: string): { rh: string; channel: Channel } | undefined {
  const match = MEMBER.exec(member);
  return match ? { rh: match[1] as string, channel: match[2] as Channel } : undefined;
}

/** `POST /v1/suppressions`: suppress one recipient's channel; `ttlSeconds` defaults to PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS. */
export const suppressionRequestSchema = z.strictObject({
  recipientId: recipientIdSchema,
  channel: z.enum(CHANNELS),
  reason: z.enum(SUPPRESSION_REASONS),
  ttlSeconds: z.number().int('must be a whole number of seconds').min(1).max(MAX_SUPPRESSION_TTL_SECONDS).optional(),
});

export type SuppressionRequest = z.infer<typeof suppressionRequestSchema>;
