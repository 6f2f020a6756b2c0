import type { NotificationAssumptions } from './notification-assumptions';
import type { ScaleResult } from './scale-model';
import { renderTable } from './text-table';

export interface ScaleReport {
  readonly command: 'scale';
  readonly assumptions: NotificationAssumptions;
  readonly result: ScaleResult;
}

/** The scale model's lines, in the seed's order. */
export function formatScale(report: ScaleReport): string[] {
  const { assumptions: a, result: r } = report;
  const pct = (value: number) => value.toFixed(2);
  return [
    `daily notifications      ${r.dailyNotifications}`,
    `peak notifications/s     ${r.peakPerSecond.toFixed(2)}`,
    `records GB/day           ${r.recordGigabytesPerDay.toFixed(2)}`,
    '',
    ...renderTable(
      [
        { header: 'channel', width: 9, align: 'left' },
        { header: 'share', width: 7 },
        { header: 'peak calls/s', width: 14 },
        { header: 'transient', width: 11 },
        { header: 'permanent', width: 11 },
        { header: `left after ${a.attemptBudget} tries`, width: 22 },
      ],
      r.channels.map((c) => [
        c.channel,
        c.share.toFixed(2),
        c.peakCallsPerSecond.toFixed(2),
        c.transientError.toFixed(2),
        c.permanentError.toFixed(2),
        c.residualError.toFixed(6),
      ]),
    ),
    '',
    `single channel, ${a.attemptBudget} tries -> mixed residual error ${r.singleChannelResidual.toFixed(6)}, ` +
      `delivery ${r.singleChannelDelivery.toFixed(4)}`,
    `threshold ${r.threshold.toFixed(4)} -> single channel ${r.singleChannelPasses ? 'passes' : 'fails'}; ` + `gap ${pct(r.gapPoints)} points`,
    `never delivered: peak ${r.undeliveredPeakPerSecond.toFixed(2)}/s, ${r.undeliveredPerDay} per day`,
    `cascade worst-case delivery = (${a.attemptBudget} - 1) x ${a.waitSeconds} s = ${r.cascadeWorstDeliverySeconds} s`,
  ];
}
