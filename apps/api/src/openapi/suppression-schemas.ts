import { z } from 'zod';
import { CHANNELS, SUPPRESSION_REASONS } from '@notify/core';

/** One suppression (docs/preferences.md, "Suppressions"): the recipient by its id and hash, never an address. */
export const suppressionSchema = z.strictObject({
  recipientId: z.string().optional().describe('The recipient id as the tenant gave it (absent on entries that do not hold it).'),
  recipientHash: z.string().describe('The recipient hash (32 hex characters), as in `recipient.opted_out` events.'),
  channel: z.enum(CHANNELS),
  reason: z
    .enum(SUPPRESSION_REASONS)
    .describe(
      'bounce: the address bounced (a hard bounce, or a permanent error naming the address); complaint: marked as spam; expired-subscription: the push service dropped the subscription; manual: added by the tenant.',
    ),
  suppressedAt: z.number().int().describe('When it was set, ms since the epoch.'),
  expiresAt: z.number().int().describe('When it lapses, ms since the epoch.'),
});

export const suppressionPageSchema = z.strictObject({
  items: z.array(suppressionSchema).describe('Partition by partition, soonest expiry first in each.'),
  nextCursor: z.string().optional().describe('Pass as `cursor` for the next page; absent on the last page.'),
});
