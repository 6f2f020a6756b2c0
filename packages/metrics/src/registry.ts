import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * prom-client's default collector exports these sums as gauges named `_total`, which
 * `promtool check metrics` rejects (`_total` is reserved for counters). The per-type gauges
 * (`nodejs_active_handles{type}` …) stay; `sum()` over them gives the same number.
 */
const MISNAMED_DEFAULT_METRICS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** One registry per process (never prom-client's global), with Node process metrics and an app label. */
export function createRegistry(app: string, options: { processMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  if (options.processMetrics !== false) {
    collectDefaultMetrics({ register: registry });
    for (const name of MISNAMED_DEFAULT_METRICS) registry.removeSingleMetric(name);
  }
  return registry;
}
