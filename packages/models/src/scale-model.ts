import { CHANNELS, type Channel } from './channels';
import { BI_ASSUMPTIONS, parseAssumptions, type NotificationAssumptions } from './notification-assumptions';

export const SECONDS_PER_DAY = 86_400;
/** The non-functional floor on total delivery rate. */
export const DELIVERY_THRESHOLD = 0.99;

export interface ChannelScale {
  readonly channel: Channel;
  readonly share: number;
  readonly peakCallsPerSecond: number;
  readonly transientError: number;
  readonly permanentError: number;
  /** Failure left after `attemptBudget` tries on this channel alone. */
  readonly residualError: number;
}

export interface ScaleResult {
  readonly dailyNotifications: number;
  readonly peakPerSecond: number;
  readonly recordGigabytesPerDay: number;
  readonly channels: readonly ChannelScale[];
  /** Share-weighted residual error of the single-channel layout. */
  readonly singleChannelResidual: number;
  readonly singleChannelDelivery: number;
  readonly threshold: number;
  readonly singleChannelPasses: boolean;
  /** Points (percent) under the threshold; negative when above it. */
  readonly gapPoints: number;
  readonly undeliveredPeakPerSecond: number;
  readonly undeliveredPerDay: number;
  /** (budget - 1) pauses: the last cascade attempt waits this long. */
  readonly cascadeWorstDeliverySeconds: number;
}

/**
 * The back-of-envelope scale model of the notification document. Residual per channel is
 * permanent + transient^budget, as the seed writes it: it slightly over-counts (a permanent
 * failure already excludes the transient draws), by under 1e-5 with the BI values.
 */
export function runScale(input: unknown = BI_ASSUMPTIONS): ScaleResult {
  const a: NotificationAssumptions = parseAssumptions(input);
  const dailyNotifications = a.dailyRecipients * a.notificationsPerRecipient;
  const peakPerSecond = (dailyNotifications / SECONDS_PER_DAY) * a.peakFactor;
  let singleChannelResidual = 0;
  const channels = CHANNELS.map((channel): ChannelScale => {
    const residualError = a.permanentError[channel] + a.transientError[channel] ** a.attemptBudget;
    singleChannelResidual += a.channelShare[channel] * residualError;
    return {
      channel,
      share: a.channelShare[channel],
      peakCallsPerSecond: peakPerSecond * a.channelShare[channel],
      transientError: a.transientError[channel],
      permanentError: a.permanentError[channel],
      residualError,
    };
  });
  const singleChannelDelivery = 1 - singleChannelResidual;
  return {
    dailyNotifications,
    peakPerSecond,
    recordGigabytesPerDay: (dailyNotifications * a.recordBytes) / 1e9,
    channels,
    singleChannelResidual,
    singleChannelDelivery,
    threshold: DELIVERY_THRESHOLD,
    singleChannelPasses: singleChannelDelivery >= DELIVERY_THRESHOLD,
    gapPoints: (DELIVERY_THRESHOLD - singleChannelDelivery) * 100,
    undeliveredPeakPerSecond: peakPerSecond * singleChannelResidual,
    undeliveredPerDay: Math.round(dailyNotifications * singleChannelResidual),
    cascadeWorstDeliverySeconds: (a.attemptBudget - 1) * a.waitSeconds,
  };
}
