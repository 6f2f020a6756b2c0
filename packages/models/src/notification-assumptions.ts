import { z } from 'zod';
import { CHANNELS, type PerChannel } from './channels';

/**
 * The notification document's assumption table (BI1..BI9) as typed input. Both the scale
 * model and the dispatch model read it, so a changed assumption moves both consistently.
 */
export interface NotificationAssumptions {
  /** BI1: daily active recipients. */
  readonly dailyRecipients: number;
  /** BI2: notifications per recipient per day. */
  readonly notificationsPerRecipient: number;
  /** BI3: peak-to-average factor. */
  readonly peakFactor: number;
  /** BI4: share of recipients preferring each channel (sums to 1). */
  readonly channelShare: PerChannel<number>;
  /** BI5: transient error probability per call (a retry can fix it). */
  readonly transientError: PerChannel<number>;
  /** BI6: permanent error probability (bad address, consent off: a retry never fixes it). */
  readonly permanentError: PerChannel<number>;
  /** BI7: bytes per notification record. */
  readonly recordBytes: number;
  /** BI8: external calls per notification, at most. */
  readonly attemptBudget: number;
  /** BI9: pause between attempts, seconds. */
  readonly waitSeconds: number;
}

/** The published values. Frozen: the models must never mutate the shared defaults. */
export const BI_ASSUMPTIONS: NotificationAssumptions = Object.freeze({
  dailyRecipients: 5_000_000,
  notificationsPerRecipient: 6,
  peakFactor: 5,
  channelShare: Object.freeze({ push: 0.55, sms: 0.25, email: 0.2 }),
  transientError: Object.freeze({ push: 0.05, sms: 0.02, email: 0.01 }),
  permanentError: Object.freeze({ push: 0.06, sms: 0.02, email: 0.01 }),
  recordBytes: 300,
  attemptBudget: 3,
  waitSeconds: 30,
});

/** Shares are decimals typed by people; 1e-9 absorbs binary rounding (0.55 + 0.25 + 0.2). */
const SHARE_SUM_TOLERANCE = 1e-9;

const probability = z.number().min(0).max(1);
const perChannel = <T extends z.ZodType>(value: T) => z.strictObject({ push: value, sms: value, email: value });

export const notificationAssumptionsSchema = z.strictObject({
  dailyRecipients: z.number().int().positive(),
  notificationsPerRecipient: z.number().positive(),
  peakFactor: z.number().min(1),
  channelShare: perChannel(probability).refine((share) => Math.abs(CHANNELS.reduce((sum, c) => sum + share[c], 0) - 1) <= SHARE_SUM_TOLERANCE, {
    message: 'channel shares must sum to 1',
  }),
  transientError: perChannel(probability),
  permanentError: perChannel(probability),
  recordBytes: z.number().int().positive(),
  attemptBudget: z.number().int().min(1),
  waitSeconds: z.number().min(0),
});

export class AssumptionsError extends Error {
  readonly code = 'INVALID_ASSUMPTIONS' as const;
  constructor(readonly issues: readonly string[]) {
    super(`invalid assumptions: ${issues.join('; ')}`);
    this.name = 'AssumptionsError';
  }
}

export function isAssumptionsError(error: unknown): error is AssumptionsError {
  return error instanceof AssumptionsError;
}

/**
 * Validates untrusted input (e.g. a CLI flag) into assumptions; throws AssumptionsError
 * listing every problem with its path, so a typo is found in one pass.
 */
export function parseAssumptions(input: unknown): NotificationAssumptions {
  const result = notificationAssumptionsSchema.safeParse(input);
  if (result.success) return result.data;
  throw new AssumptionsError(result.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`));
}

/**
 * Overlays a partial table on the published one (top-level keys replace whole values; a
 * per-channel map must name every channel) and validates the result.
 */
export function withAssumptions(overrides: unknown): NotificationAssumptions {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new AssumptionsError(['(root): expected an object']);
  }
  return parseAssumptions({ ...BI_ASSUMPTIONS, ...overrides });
}
