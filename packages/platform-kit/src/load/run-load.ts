import { randomUUID } from 'node:crypto';
import { waitFor } from '../services/wait-for';
import { runOpenLoop } from './open-loop';
import { buildReport, takeSnapshot, terminalCount, type RunReport, type Snapshot } from './run-report';
import { trafficMix } from './traffic-mix';

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
  signal?: AbortSignal;
}

/** Offers the brief's traffic open loop, waits (bounded) until every accepted notification is terminal, reports. */
export async function runLoad(options: RunLoadOptions): Promise<RunReport> {
  const before = await takeSnapshot(options.workerMetricsUrls, options.simControlUrl);
  const next = trafficMix({ tag: randomUUID().slice(0, 8), seed: options.seed, urgentShare: options.urgentShare });
  const load = await runOpenLoop({
    apiUrl: options.apiUrl,
    apiKey: options.apiKey,
    ratePerSecond: options.rate,
    seconds: options.seconds,
    tickMs: options.tickMs,
    mode: options.mode,
    next: () => next().request,
    maxInFlight: 256,
    whenFull: 'skip',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const target = terminalCount(before) + load.accepted;
  let after: Snapshot = await takeSnapshot(options.workerMetricsUrls, options.simControlUrl);
  await waitFor(
    'every accepted notification terminal',
    async () => {
      after = await takeSnapshot(options.workerMetricsUrls, options.simControlUrl);
      return terminalCount(after) >= target;
    },
    options.drainSeconds * 1_000,
    250,
    options.signal,
  ).catch(() => undefined);
  return buildReport(load, before, after);
}
