import type { DispatchReport, DispatchRow, DispatchRowId } from './dispatch-report';
import { fixed, renderTable, yesNo, type Column } from './text-table';

/** Text labels; rows that start with "+" are the platform's policies, not the seed's. */
export const DISPATCH_ROW_LABELS: { readonly [K in DispatchRowId]: string } = {
  single: 'single channel',
  parallel: 'parallel',
  cascade: 'cascade',
  'cascade-no-wait': '+ cascade, no wait after permanent',
  'breaker-cascade': '+ breaker-aware cascade',
  'breaker-cascade-reuse': '+ breaker-aware, freed attempt reused',
  'breaker-cascade-no-wait': '+ breaker-aware, no wait after perm.',
  'cascade-suppression': '+ cascade with suppression',
};

const LABEL_WIDTH = 38;

function layoutTable(title: string, rows: readonly DispatchRow[]): string[] {
  const columns: Column[] = [
    { header: title, width: LABEL_WIDTH, align: 'left' },
    { header: 'delivery', width: 9 },
    { header: 'ext calls', width: 11 },
    { header: 'calls/notif', width: 13 },
    { header: 'duplicates', width: 12 },
    { header: 'mean delivery s', width: 17 },
  ];
  return renderTable(
    columns,
    rows.map((r) => [
      DISPATCH_ROW_LABELS[r.id],
      r.deliveryRate.toFixed(4),
      String(r.externalCalls),
      r.callsPerNotification.toFixed(3),
      String(r.duplicates),
      fixed(r.meanDeliverySeconds, 2),
    ]),
  );
}

/** Every table of `dispatch` as text lines: the seed's three, its derived lines, then ours. */
export function formatDispatch(report: DispatchReport): string[] {
  const { inputs, derived, breaker, noWait, suppression } = report;
  const cascadeDown = report.channelDown.rows.find((r) => r.id === 'cascade');
  const breakerDown = report.channelDown.rows.find((r) => r.id === 'breaker-cascade');
  const cascade = report.layouts.find((r) => r.id === 'cascade');
  const [plainDay, suppressedDay] = suppression.rows;
  const lines = [
    `dispatch model: ${inputs.notifications} notifications, 3 channels, attempt budget ${inputs.attemptBudget}, ` +
      `wait ${inputs.waitSeconds} s, seed ${inputs.seed}, error multiplier x${inputs.multiplier}`,
    "rows marked + are the platform's policies, beside the seed's rows",
    '',
    ...layoutTable('layout', report.layouts),
    '',
    ...renderTable(
      [
        { header: 'error multiplier', width: 18, align: 'left' },
        { header: 'single channel', width: 16 },
        { header: 'parallel', width: 11 },
        { header: 'cascade', width: 10 },
      ],
      report.multipliers.map((m) => [`x${m.multiplier}`, m.single.toFixed(4), m.parallel.toFixed(4), m.cascade.toFixed(4)]),
    ),
    '(delivery rate per layout)',
    '',
    ...layoutTable(`${report.channelDown.channel} fully down`, report.channelDown.rows),
    '',
    `cascade - single channel delivery = ${derived.cascadeMinusSinglePoints.toFixed(2)} points`,
    `price of parallel: external calls x${derived.parallelCallsRatio.toFixed(2)}, ${derived.parallelDuplicates} ` +
      `duplicate deliveries, ${derived.parallelExtraPerNotification.toFixed(2)} extra per notification`,
    `gain of parallel: mean delivery ${fixed(derived.parallelMeanDeliverySeconds, 2)} s, ` + `cascade ${fixed(derived.cascadeMeanDeliverySeconds, 2)} s`,
    '',
    `+ breaker-aware cascade, ${breaker.channel} down: saves ${breaker.savedCalls} calls ` +
      `(${cascadeDown?.externalCalls ?? '?'} -> ${breakerDown?.externalCalls ?? '?'}); the seed's estimate is ` +
      `${breaker.seedEstimateSavedCalls} (${cascadeDown?.externalCalls ?? '?'} - ${cascade?.externalCalls ?? '?'}, ` +
      'a healthy run)',
    '',
    `+ no wait after a permanent error (urgent bound: mean delivery <= ${noWait.urgentBoundSeconds} s)`,
    ...renderTable(
      [
        { header: 'scenario', width: 16, align: 'left' },
        { header: 'policy', width: LABEL_WIDTH, align: 'left' },
        { header: 'delivery', width: 9 },
        { header: 'mean delivery s', width: 17 },
        { header: 'no-pause share', width: 16 },
        { header: 'urgent ok', width: 11 },
      ],
      noWait.rows.map((r) => [
        r.scenario,
        DISPATCH_ROW_LABELS[r.id],
        r.deliveryRate.toFixed(4),
        fixed(r.meanDeliverySeconds, 2),
        fixed(r.noPauseShare, 4),
        yesNo(r.meetsUrgentBound),
      ]),
    ),
    '',
    `+ suppression over a day of repeated recipients: ${suppression.recipients} recipients, ` +
      `up to ${suppression.perRecipient} notifications each (round robin, ${inputs.notifications} in all), ` +
      'permanent errors fixed per (recipient, channel)',
    ...renderTable(
      [
        { header: 'policy', width: LABEL_WIDTH, align: 'left' },
        { header: 'delivery', width: 9 },
        { header: 'ext calls', width: 11 },
        { header: 'calls/notif', width: 13 },
        { header: 'mean delivery s', width: 17 },
        { header: 'suppressed pairs', width: 18 },
      ],
      suppression.rows.map((r) => [
        DISPATCH_ROW_LABELS[r.id],
        r.deliveryRate.toFixed(4),
        String(r.externalCalls),
        r.callsPerNotification.toFixed(3),
        fixed(r.meanDeliverySeconds, 2),
        r.id === 'cascade' ? '-' : String(r.suppressionEntries),
      ]),
    ),
    `suppression saves ${suppression.savedCalls} calls ` +
      `(${plainDay === undefined || plainDay.externalCalls === 0 ? 'n/a' : ((suppression.savedCalls / plainDay.externalCalls) * 100).toFixed(1)} %` +
      ` of the calls); at ${suppression.notificationsPerDay} notifications/day about ${suppression.savedCallsPerDay} calls/day; ` +
      `delivery unchanged: ${yesNo(plainDay?.delivered === suppressedDay?.delivered)}`,
  ];
  return lines;
}
