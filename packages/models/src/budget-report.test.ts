import { buildBudgetReport, DEFAULT_BUDGET_INPUTS } from './budget-report';

describe('buildBudgetReport: the derived tables of the seed', () => {
  const report = buildBudgetReport();
  const byPolicy = <T extends { policy: string }>(rows: readonly T[], policy: string) => rows.find((r) => r.policy === policy);

  it('busy slots under AY10 without and with a cancel signal', () => {
    const fmt = (policy: string) => {
      const b = byPolicy(report.busySlots, policy);
      return b && [b.callerSlots, b.abandonedSlots, b.totalWithoutCancel, b.totalWithCancel].map((x) => x.toFixed(1));
    };
    expect(fmt('greedy')).toEqual(['82.4', '48.1', '130.5', '82.4']);
    expect(fmt('equal')).toEqual(['52.5', '84.2', '136.7', '52.5']);
    expect(fmt('weighted')).toEqual(['40.2', '96.5', '136.7', '40.2']);
    expect(fmt('tail-aware')).toEqual(['48.5', '88.2', '136.7', '48.5']);
  });

  it('the healthy-day cost lines', () => {
    const cost = report.healthyDayCost;
    expect(cost?.deadlineBytesPerRequest).toBe(40);
    expect(cost?.shareOfResponsePercent.toFixed(1)).toBe('8.3');
    expect(cost?.bytesPerSecondAtPeak.toFixed(2)).toBe('20555.60');
    expect(cost?.kibPerSecondAtPeak.toFixed(2)).toBe('20.07');
    const drops = (policy: string) => {
      const d = cost && byPolicy(cost.extraDrops, policy);
      return d && [d.extraDropped, d.requests, d.percent.toFixed(2), d.perSecondAtPeakReads.toFixed(2)];
    };
    expect(drops('equal')).toEqual([2, 48, '4.17', '17.36']);
    expect(drops('weighted')).toEqual([2, 48, '4.17', '17.36']);
    expect(drops('tail-aware')).toEqual([0, 48, '0.00', '0.00']);
  });

  it('the AY10 sensitivity table', () => {
    expect(report.sensitivity.map((s) => [s.minutes, s.timesPerMonth, s.monthlyMinutes, s.allowancePercent.toFixed(1)])).toEqual([
      [12, 1, 12, '42.6'],
      [12, 2, 24, '85.1'],
      [24, 1, 24, '85.1'],
    ]);
  });

  it('the split table and the tail-aware percentile sweep', () => {
    expect(report.splits.map((s) => [s.policy, s.origin, s.tariffMs, s.measurementMs])).toEqual([
      ['greedy', 'seed', 180, 180],
      ['equal', 'seed', 90, 90],
      ['weighted', 'seed', 60, 120],
      ['tail-aware', 'ours', 80, 100],
    ]);
    expect(report.tailSweep.map((t) => [t.percentile, t.healthyDropped, t.slowMeasurementFailures])).toEqual([
      [0.5, 2, 0],
      [0.9, 2, 0],
      [0.95, 0, 0],
      [0.99, 0, 0],
    ]);
  });

  it('filters by policy and regime', () => {
    const slowWeighted = buildBudgetReport({ ...DEFAULT_BUDGET_INPUTS, policies: ['weighted'], regimes: ['tariff-slow'] });
    expect(slowWeighted.runs.map((r) => [r.regime, r.policy])).toEqual([['tariff-slow', 'weighted']]);
    expect(slowWeighted.healthyDayCost).toBeNull();
    expect(slowWeighted.tailSweep).toEqual([]);
    expect(slowWeighted.busySlots).toHaveLength(1);
    const healthy = buildBudgetReport({ ...DEFAULT_BUDGET_INPUTS, regimes: ['healthy'] });
    expect(healthy.busySlots).toEqual([]);
    expect(healthy.sensitivity).toEqual([]);
  });
});
