import { Registry, register as globalRegistry } from 'prom-client';
import { BUDGET_METRIC_NAMES, createAbandonedWorkMetric, createBudgetMetrics } from './metrics';

describe('budget metrics', () => {
  it('register on the given registry only, under notify_<noun>_<unit> names', async () => {
    const registry = new Registry();
    const metrics = createBudgetMetrics(registry);
    createAbandonedWorkMetric(registry);
    const names = (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
    expect(names).toEqual(Object.values(BUDGET_METRIC_NAMES).sort());
    for (const name of names) expect(name).toMatch(/^notify_[a-z_]+_(total|seconds)$/);
    expect(globalRegistry.getSingleMetric(BUDGET_METRIC_NAMES.timeouts)).toBeUndefined();
    expect(createBudgetMetrics(registry).timeouts).toBe(metrics.timeouts); // shared registry: same metric
  });

  it('counts timeouts and cancellations from step events, and abandoned work in seconds', async () => {
    const registry = new Registry();
    const metrics = createBudgetMetrics(registry);
    metrics.onStep({ step: 'tariff', policy: 'weighted', outcome: 'deadline_exceeded', durationMs: 60 });
    metrics.onStep({ step: 'measurement', policy: 'weighted', outcome: 'ok', durationMs: 12 });
    metrics.onCancelSent('tariff');
    metrics.recordRequest('deadline_exceeded', 'weighted', 93);
    createAbandonedWorkMetric(registry).record('tariff', 340);
    const text = await registry.metrics();
    expect(text).toContain('notify_tracking_timeouts_total{step="tariff",policy="weighted"} 1');
    expect(text).not.toContain('notify_tracking_timeouts_total{step="measurement"');
    expect(text).toContain('notify_tracking_cancellations_total{step="tariff"} 1');
    expect(text).toContain('notify_tracking_requests_total{outcome="deadline_exceeded",policy="weighted"} 1');
    expect(text).toContain('notify_tracking_abandoned_work_seconds_total{store="tariff"} 0.34');
  });
});
