import { collectDefaultMetrics, Registry } from 'prom-client';

/** One registry per process (never prom-client's global), with Node process metrics and an app label. */
export function createRegistry(app: string, options: { processMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  return registry;
}
