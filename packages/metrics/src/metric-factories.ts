import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The metrics of the `create…Metrics` factories, each registered on the registry given (never
 * prom-client's global). Label names stay literal types, so `inc({ wrong: … })` fails to compile.
 */
export function counter<const L extends string = string>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function histogram<const L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
  return new Histogram({ name, help, labelNames, buckets, registers: [registry] });
}

export function gauge<const L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return new Gauge({ name, help, labelNames, registers: [registry] });
}
