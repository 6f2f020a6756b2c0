import {
  CANCELED_REASON,
  CHANNELS,
  EXPIRED_REASON,
  NOTIFICATION_STATUSES,
  PRIORITIES,
  SKIP_REASONS,
  type Channel,
  type NotificationStatus,
  type Priority,
  type SkipReason,
} from '@notify/core';

/**
 * The small-integer codes the history rows store instead of strings (smallint columns: 2 bytes
 * instead of a varlena per value on 30 M rows a day). Codes are positions in the core lists,
 * +1 so 0 can mean "none". Append-only: a value added to a core list gets the next code, and a
 * code is never reused (rows keep them for the retention).
 */
function codec<T extends string>(values: readonly T[]) {
  return {
    code(value: T): number {
      const i = values.indexOf(value);
      if (i < 0) throw new Error(`no history code for ${JSON.stringify(value)}`);
      return i + 1;
    },
    value(code: number): T {
      const v = values[code - 1];
      if (v === undefined) throw new Error(`unknown history code ${code}`);
      return v;
    },
  };
}

export const statusCodes = codec<NotificationStatus>(NOTIFICATION_STATUSES);
export const priorityCodes = codec<Priority>(PRIORITIES);
export const channelCodes = codec<Channel>(CHANNELS);

/** The failure reasons the pipeline writes today; any other text is kept verbatim in the detail blob. */
export const KNOWN_FAILURE_REASONS = [
  'budget-exhausted',
  'all-channels-permanent',
  'unknown-outcome-budget-exhausted',
  'unknown-outcome-unsettled-before-maximum-age',
  'no channel available before the maximum age',
  CANCELED_REASON,
  EXPIRED_REASON,
  'all-channels-opted-out',
] as const;
/** reason column: 0 none, 1..n a known reason, OTHER_REASON the text is in the detail blob. */
export const OTHER_REASON = 32767;

export function reasonCode(reason: string | undefined): number {
  if (reason === undefined) return 0;
  const i = (KNOWN_FAILURE_REASONS as readonly string[]).indexOf(reason);
  return i < 0 ? OTHER_REASON : i + 1;
}

export function knownReason(code: number): string | undefined {
  return code === 0 || code === OTHER_REASON ? undefined : KNOWN_FAILURE_REASONS[code - 1];
}

/** A plan (ordered channels) in one smallint: 2 bits per channel code, first channel lowest; at most 7. */
export function encodePlan(plan: readonly Channel[]): number | undefined {
  if (plan.length > 7) return undefined;
  let packed = 0;
  for (const [i, c] of plan.entries()) {
    const code = channelCodes.code(c);
    if (code > 3) return undefined;
    packed |= code << (2 * i);
  }
  return packed;
}

export function decodePlan(packed: number): Channel[] {
  const plan: Channel[] = [];
  for (let v = packed; v !== 0; v >>= 2) plan.push(channelCodes.value(v & 3));
  return plan;
}

/** Bit per channel, for the `channel` filter (a channel with at least one attempt). */
export function channelBit(channel: Channel): number {
  return 1 << (channelCodes.code(channel) - 1);
}

/**
 * The `channels` column's high byte: a bit per skip reason the notification has at least one
 * skip of (the `skipReason` filter), bit SKIP_BITS_FROM + its position in SKIP_REASONS. The low
 * bits stay the channels with an attempt; sharing the column costs no byte per row.
 */
export const SKIP_BITS_FROM = 8;

export function skipReasonBit(reason: SkipReason): number {
  const i = SKIP_REASONS.indexOf(reason);
  if (i < 0 || SKIP_BITS_FROM + i > 14) throw new Error(`no history bit for the skip reason ${JSON.stringify(reason)}`);
  return 1 << (SKIP_BITS_FROM + i);
}
