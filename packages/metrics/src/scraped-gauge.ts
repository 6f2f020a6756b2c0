import { Gauge, type Registry } from 'prom-client';

/**
 * A gauge read at scrape time (a queue's length, an index's size). When the read fails (Redis
 * unreachable: /readyz reports it) the scrape still answers, with the last value.
 */
export function scrapedGauge(registry: Registry, name: string, help: string, read: () => Promise<number>): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      try {
        this.set(await read());
      } catch {
        // The last value stays.
      }
    },
  });
}
