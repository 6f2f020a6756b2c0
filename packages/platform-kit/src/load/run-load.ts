import { randomUUID } from 'node:crypto';
import { runOpenLoop } from './open-loop';
import { buildReport, takeSnapshot, terminalCount, type RunReport } from './run-report';
import { createTraffic } from './traffic';

export interface RunLoadOptions {
  apiUrl: string;
  apiKey: string;
  rate: number;
  seconds: number;
  urgentShare: number;
  mode: 'batch' | 'single';
  tickMs: number;
  workerMetricsUrls: string[];
  simControlUrl: string | undefined;
  drainSeconds: number;
  seed: number;
  /** Called once, halfway through the offered load (chaos scenarios hook in here). */
  midway?: () => Promise<void>;
}

/** Offers the load, waits (bounded) until every accepted notification is terminal, reports. */
export async function runLoad(options: RunLoadOptions): Promise<RunReport> {
  const before = await takeSnapshot(options.workerMetricsUrls, options.simControlUrl);
  const traffic = createTraffic(randomUUID().slice(0, 8), options.seed, options.urgentShare);
  const midway = options.midway
    ? new Promise<void>((resolve, reject) => setTimeout(() => options.midway!().then(resolve, reject), (options.seconds * 1_000) / 2))
    : Promise.resolve();
  const load = await runOpenLoop({
    apiUrl: options.apiUrl, apiKey: options.apiKey, ratePerSecond: options.rate, seconds: options.seconds,
    tickMs: options.tickMs, mode: options.mode, next: traffic, maxInFlight: 256,
  });
  await midway;
  const target = terminalCount(before) + load.accepted;
  const drainUntil = Date.now() + options.drainSeconds * 1_000;
  let after = await takeSnapshot(options.workerMetricsUrls, options.simControlUrl);
  while (terminalCount(after) < target && Date.now() < drainUntil) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    after = await takeSnapshot(options.workerMetricsUrls, options.simControlUrl);
  }
  return buildReport(load, before, after);
}
