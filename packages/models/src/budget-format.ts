import type { BudgetReport, ChainRow } from './budget-report';
import { DEADLINE_FIELD_BYTES, SUBCALLS_PER_REQUEST, TRACKING, type Regime } from './chain-profile';
import type { SplitPolicy } from './split-budget';
import { renderTable } from './text-table';

const REGIME_LABELS: { readonly [R in Regime]: string } = { healthy: 'healthy', 'tariff-slow': 'tariff slow (AY10)' };
const label = (policy: SplitPolicy, origin: string) => (origin === 'ours' ? `+ ${policy}` : policy);
const POLICY_WIDTH = 14;
/** Whole ms as the seed prints them; a fractional share (e.g. --percentile 0.9) gets one decimal. */
const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
/** 0.99 -> "p99", 0.995 -> "p99.5". */
const percentileLabel = (q: number) => `p${Number((q * 100).toFixed(2))}`;

function runTable(rows: readonly ChainRow[]): string[] {
  return renderTable(
    [
      { header: 'policy', width: POLICY_WIDTH, align: 'left' },
      { header: 'answered', width: 9 },
      { header: 'dropped', width: 9 },
      { header: 'fail:ops', width: 10 },
      { header: 'fail:tariff', width: 13 },
      { header: 'fail:measure', width: 14 },
      { header: 'median', width: 8 },
      { header: 'worst', width: 7 },
      { header: 'mean', width: 8 },
      { header: 'slots held', width: 12 },
      { header: 'wasted ms', width: 11 },
    ],
    rows.map((r) => [
      label(r.policy, r.origin),
      String(r.answered),
      String(r.dropped),
      String(r.failures.deliveryOps),
      String(r.failures.tariff),
      String(r.failures.measurement),
      ms(r.medianMs),
      ms(r.worstMs),
      r.meanMs.toFixed(1),
      r.slotsHeld.toFixed(1),
      ms(r.wastedMs),
    ]),
  );
}

/** Every table of `budget`, in the seed's order, with our rows marked "+". */
export function formatBudget(report: BudgetReport): string[] {
  const { chain, inputs } = report;
  const q = percentileLabel(inputs.tailPercentile);
  const lines = [
    `end-to-end threshold ${chain.thresholdMs} ms (K01), gateway share ${chain.gatewayShareMs} ms (U3), ` + `branch budget ${chain.branchBudgetMs} ms`,
    `ordinary latencies: delivery-ops ${chain.ordinaryMs.deliveryOps}, tariff ${chain.ordinaryMs.tariff}, ` +
      `measurement ${chain.ordinaryMs.measurement} ms; healthy-day tails (${q}): ${chain.tailMs.deliveryOps}, ` +
      `${chain.tailMs.tariff}, ${chain.tailMs.measurement} ms`,
    ...renderTable(
      [
        { header: 'policy', width: POLICY_WIDTH, align: 'left' },
        { header: 'tariff share ms', width: 18 },
        { header: 'measurement share ms', width: 23 },
      ],
      report.splits.map((s) => [label(s.policy, s.origin), s.tariffMs.toFixed(1), s.measurementMs.toFixed(1)]),
    ),
  ];

  for (const regime of inputs.regimes) {
    lines.push('', `-- ${REGIME_LABELS[regime]} (${inputs.requests} requests, no cancel signal) --`);
    lines.push(...runTable(report.runs.filter((r) => r.regime === regime)));
  }

  if (report.busySlots.length > 0) {
    lines.push('', `-- tariff slow: slots kept busy (peak reads ${TRACKING.peakReadsPerSecond}/s, L = lambda x W) --`);
    lines.push(
      ...renderTable(
        [
          { header: 'policy', width: POLICY_WIDTH, align: 'left' },
          { header: 'caller', width: 8 },
          { header: 'abandoned', width: 11 },
          { header: 'total (no cancel)', width: 19 },
          { header: 'total (cancel)', width: 16 },
        ],
        report.busySlots.map((b) => [
          label(b.policy, b.origin),
          b.callerSlots.toFixed(1),
          b.abandonedSlots.toFixed(1),
          b.totalWithoutCancel.toFixed(1),
          b.totalWithCancel.toFixed(1),
        ]),
      ),
    );
  }

  const cost = report.healthyDayCost;
  if (cost !== null) {
    lines.push(
      '',
      '-- cost on a healthy day --',
      `deadline field ${DEADLINE_FIELD_BYTES} B x ${SUBCALLS_PER_REQUEST} sub-calls = ${cost.deadlineBytesPerRequest} B/request, ` +
        `${cost.shareOfResponsePercent.toFixed(1)} % of the tracking response (${TRACKING.responseBytes} B)`,
      `at the edge peak ${TRACKING.peakEdgeRequestsPerSecond} requests/s -> ${cost.bytesPerSecondAtPeak.toFixed(2)} B/s = ` +
        `${cost.kibPerSecondAtPeak.toFixed(2)} KiB/s`,
      ...cost.extraDrops.map(
        (d) =>
          `${label(d.policy, d.origin).padEnd(POLICY_WIDTH)}: ${d.extraDropped}/${d.requests} more dropped than greedy = ` +
          `${d.percent.toFixed(2)} % -> ${d.perSecondAtPeakReads.toFixed(2)} requests/s at peak reads`,
      ),
    );
  }

  if (report.tailSweep.length > 0) {
    lines.push('', '-- + tail-aware split: which percentile of the healthy-day profile --');
    lines.push(
      ...renderTable(
        [
          { header: 'percentile', width: 11, align: 'left' },
          { header: 'tariff ms', width: 10 },
          { header: 'measurement ms', width: 16 },
          { header: 'healthy dropped', width: 17 },
          { header: 'AY10 fail:measure', width: 19 },
          { header: 'AY10 slots held', width: 17 },
        ],
        report.tailSweep.map((t) => [
          percentileLabel(t.percentile),
          t.tariffMs.toFixed(1),
          t.measurementMs.toFixed(1),
          String(t.healthyDropped),
          String(t.slowMeasurementFailures),
          t.slowSlotsHeld.toFixed(1),
        ]),
      ),
    );
  }

  if (report.sensitivity.length > 0) {
    lines.push('', '-- AY10 sensitivity: how long the tariff store stays slow --');
    lines.push(
      ...renderTable(
        [
          { header: 'minutes', width: 8 },
          { header: 'per month', width: 11 },
          { header: 'monthly min', width: 13 },
          { header: `of allowance (${TRACKING.monthlyAllowanceMinutes} min)`, width: 26 },
        ],
        report.sensitivity.map((s) => [String(s.minutes), String(s.timesPerMonth), String(s.monthlyMinutes), `${s.allowancePercent.toFixed(1)} %`]),
      ),
    );
  }
  return lines;
}
