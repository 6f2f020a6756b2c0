import { buildDispatchReport, DEFAULT_DISPATCH_INPUTS } from './dispatch-report';
import { formatDispatch } from './dispatch-format';

describe('buildDispatchReport', () => {
  const report = buildDispatchReport();

  it('derived lines and the breaker figures', () => {
    expect(report.derived.cascadeMinusSinglePoints.toFixed(2)).toBe('4.09');
    expect(report.derived.parallelCallsRatio.toFixed(2)).toBe('2.78');
    expect(report.derived.parallelDuplicates).toBe(190861);
    expect(report.derived.parallelExtraPerNotification.toFixed(2)).toBe('1.83');
    expect(report.breaker).toEqual({ channel: 'push', seedEstimateSavedCalls: 54449, savedCalls: 58938 });
  });

  it('the no-wait table: x3 and push-down only meet the urgent bound with our policies', () => {
    const verdict = report.noWait.rows.map((r) => [r.scenario, r.id, r.meetsUrgentBound]);
    expect(verdict).toEqual([
      ['x1', 'cascade', true],
      ['x1', 'cascade-no-wait', true],
      ['x2', 'cascade', true],
      ['x2', 'cascade-no-wait', true],
      ['x3', 'cascade', false],
      ['x3', 'cascade-no-wait', true],
      ['push down', 'cascade', false],
      ['push down', 'cascade-no-wait', false],
      ['push down', 'breaker-cascade', true],
      ['push down', 'breaker-cascade-no-wait', true],
    ]);
  });

  it('suppression saves calls at identical delivery', () => {
    expect(report.suppression.savedCalls).toBe(3409);
    const [plain, suppressed] = report.suppression.rows;
    expect(plain?.delivered).toBe(suppressed?.delivered);
  });

  it('adds the chosen multiplier to the stress table when the seed does not print it', () => {
    const small = buildDispatchReport({ ...DEFAULT_DISPATCH_INPUTS, notifications: 500, multiplier: 2.5 });
    expect(small.multipliers.map((m) => m.multiplier)).toEqual([1, 2, 3, 2.5]);
    expect(small.noWait.rows.at(-1)?.scenario).toBe('push down x2.5');
  });

  it('prints every seed number in its text tables', () => {
    const text = formatDispatch(report).join('\n');
    for (const line of [
      /^single channel\s+0\.9590\s+116305\s+1\.117\s+0\s+1\.08$/m,
      /^parallel\s+0\.9999\s+312501\s+3\.000\s+190861\s+0\.00$/m,
      /^cascade\s+0\.9999\s+112357\s+1\.079\s+0\s+2\.35$/m,
      /^x1\s+0\.9590\s+0\.9999\s+0\.9999$/m,
      /^x2\s+0\.9199\s+0\.9993\s+0\.9994$/m,
      /^x3\s+0\.8790\s+0\.9979\s+0\.9979$/m,
      /^single channel\s+0\.4443\s+220661\s/m,
      /^parallel\s+0\.9993\s+312501\s/m,
      /^cascade\s+0\.9991\s+166806\s/m,
      /= 4\.09 points/,
      /x2\.78, 190861 duplicate deliveries, 1\.83 extra per notification/,
      /mean delivery 0\.00 s, cascade 2\.35 s/,
      /the seed's estimate is 54449 \(166806 - 112357/,
    ]) {
      expect(text).toMatch(line);
    }
  });
});
